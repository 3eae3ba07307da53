# One "GPU 0" that is two physical GPUs in a query-gpu CSV log: the logs
# of two machines (both GPUs index 0, other bus ids) joined with cat, the
# second header line between them as cat leaves it, and again with the
# second written without a header (csv,noheader).  The bus id tells them
# apart: the second is read as a GPU of its own (GPU 1), said once with
# its line; each half reads as it does alone.  A compute-apps log keyed by
# bus id puts each process on its own half's GPU.
. "$TESTS/lib.sh"
need_corpus real/query-gpu-csv
f=$CORPUS/real/query-gpu-csv/akshayroyal_rtx2070_single-header.csv
head -n 117 "$f" > a.csv
{ head -n 1 "$f"; tail -n +118 "$f" | sed 's/00000000:01:00.0/00000000:02:00.0/'; } > b.csv
grep -q '00000000:02:00.0' b.csv || die "b.csv: bus id not changed"
tail -n +2 b.csv > b-noheader.csv
cat a.csv b.csv > job.csv
cat a.csv b-noheader.csv > job2.csv
gpumem-read job.csv > got
gpumem-read -q a.csv > want
gpumem-read -q b.csv | tail -n +2 | awk -F, -v OFS=, '{ $3 = 1; print }' >> want
cmp -s got want || die "job.csv: records differ"
gpumem-read job2.csv > got2
cmp -s got2 want || die "job2.csv: records differ"
cat got
# The compute-apps log of the same polls, keyed by bus id: pid 100 on the
# first machine's GPU, pid 200 on the second's.
awk -F', ' '$1 ~ /^[0-9]/ {
	printf "%s, %s, %d, python, 500 MiB\n", $1, $4,
	    $4 == "00000000:01:00.0" ? 100 : 200
}' job.csv > rows
{ echo "timestamp, gpu_bus_id, pid, process_name, used_gpu_memory [MiB]";
    cat rows; } > apps.csv
awk -F', ' '{ n[$3 == 100 ? "100,0" : "200,1"]++ }
	END { for (k in n) print k "," n[k] }' rows | sort > want-apps
gpumem-read -q job.csv apps.csv | awk -F, 'NR > 1 && $4 != 0 && $5 > 0 {
	n[$4 "," $3]++ } END { for (k in n) print k "," n[k] }' | sort > got-apps
cmp -s got-apps want-apps ||
    die "processes on the wrong GPU: $(diff want-apps got-apps)"
cat got-apps
# The same bus id throughout: one GPU, nothing said.
gpumem-read "$f" 2>&1 > /dev/null | grep -c 'GPU 0 has bus id' || :
