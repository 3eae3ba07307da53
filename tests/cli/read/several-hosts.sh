# Two recordings of concurrent jobs on two machines, both "GPU 0", logged
# by nvidia-smi as per-node files: read together, the bus ids and UUIDs the
# logs carry keep them apart (the second machine's GPU 0 is read as GPU 1,
# said) and each task is its recording's truth; with --host-from-file each
# file is its host and the tasks are each recording's own truth.
. "$TESTS/lib.sh"
gpumem-synth -s sequential --host node1 --truth t1.csv --nvsmi n1
gpumem-synth -s concurrent --host node2 --truth t2.csv --nvsmi n2
# The second machine's GPU has its own UUID and bus id.
sed -i 's/GPU-5a1e0000/GPU-7b2f0000/; s/00000000:17:00.0/00000000:65:00.0/' \
	n2/query-gpu.csv n2/compute-apps.csv
for n in 1 2; do
	cp n$n/query-gpu.csv node$n.query-gpu.csv
	cp n$n/compute-apps.csv node$n.compute-apps.csv
done
{ cat t1.csv; tail -n +2 t2.csv; } > truth.csv
gpumem-tasks node*.csv > merged.csv
awk -F, -v OFS=, 'NR > 1 { $2 = $1 == "node2" ? 1 : 0; $1 = "" } { print }' \
    truth.csv > truth-nohost.csv
sh "$TESTS/tools/taskcmp.sh" truth-nohost.csv merged.csv ||
    die "read together: not each recording's truth"
gpumem-tasks -q --host-from-file node*.csv > got.csv
sh "$TESTS/tools/taskcmp.sh" truth.csv got.csv || die "--host-from-file"
# A pattern: the host is what it matches (its first group, if any).
for n in 1 2; do
	cp n$n/query-gpu.csv job42_node$n-gpu.csv
	cp n$n/compute-apps.csv job42_node$n-apps.csv
done
gpumem-tasks -q --host-from-file='_(node[0-9]+)-' job42_*.csv > got2.csv
sh "$TESTS/tools/taskcmp.sh" truth.csv got2.csv || die "--host-from-file=REGEX"
rc=0; gpumem-read --host-from-file='(' job42_node1-gpu.csv || rc=$?
echo "exit $rc"
