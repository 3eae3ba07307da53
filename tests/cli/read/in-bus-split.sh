# One "GPU 0" that is two physical GPUs over time: a job's table log
# (nvidia-smi every 60 s) whose second half ran on another node, appended
# to the same file.  The Bus-Id tells them apart: the second is read as a
# GPU of its own (GPU 1), said once; each half reads as it does alone.
. "$TESTS/lib.sh"
need_corpus real/default-table
f=$CORPUS/real/default-table/slurmmwe_l40s_drv550_nvidia-smi-every-60s.log
head -n 2500 "$f" > a.log
tail -n +2501 "$f" | sed 's/00000000:4A:00.0/00000000:CA:00.0/' > b.log
head -n 1 b.log | grep -q '^[A-Z][a-z][a-z] ' || die "b.log starts inside a table"
cat a.log b.log > job.log
gpumem-read job.log > got
gpumem-read -q a.log > want
gpumem-read -q b.log | tail -n +2 | awk -F, -v OFS=, '{ $3 = 1; print }' >> want
cmp -s got want || die "job.log: records differ"
# The same bus id throughout: one GPU, nothing said.
gpumem-read "$f" 2>&1 > /dev/null | grep -c 'GPU 0 has bus id' || :
