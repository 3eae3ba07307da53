# Headers as nvidia-smi prints them for short queries: one column
# (`--query-gpu=memory.used --format=csv -l 5`: "memory.used [MiB]", no
# comma) is a header, its rows polls of one GPU; a header naming
# utilization.memory (the memory controller's busy time) and no memory.*
# field is said to be what it is, a --query-gpu log without memory
# columns, not "no header line".
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "memory.used [MiB]" > "used.log"
	for (p = 0; p < 5; p++) {
		printf "%d MiB\n", 100 * p + 7 > "used.log"
		printf "%d000000000,,0,0,%d,,,\n", 1767225600 + 5 * p, 100 * p + 7 > "want"
	}
	print "timestamp, utilization.gpu [%], utilization.memory [%]" > "util.log"
	print "memory.used" > "nounits.log"
	for (p = 0; p < 5; p++) {
		printf "2026/01/01 00:00:%02d.000, %d %%, %d %%\n", 5 * p, 10 * p, 3 * p > "util.log"
		printf "%d\n", 100 * p + 7 > "nounits.log"
	}
}'
for f in used nounits; do
	gpumem-read -q --interval 5s --start 2026-01-01T00:00:00Z $f.log | tail -n +2 > got
	cmp -s got want || die "$f.log: records differ: $(diff want got | head -n 5)"
done
rc=0; gpumem-read util.log || rc=$?
expect_eq "util.log: exit" $rc 2
