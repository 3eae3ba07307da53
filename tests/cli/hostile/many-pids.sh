# Tens of thousands of processes in one stream: 100000 alive at once
# (the engine tracks 65536, the reader ends 65536), and 20000 that end
# without their memory ever coming back (at most 4096 wait on a GPU: the
# earliest are given up as leaked, and a device sample costs no more than
# that).  Each cap says what it left out.  Peak RSS does not grow with the
# number of processes beyond the caps (normal build only).
. "$TESTS/lib.sh"
# alive N: N processes listed at once, then a device sample.
alive() {
	awk -v n="$1" 'BEGIN {
		print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
		for (p = 1; p <= n; p++)
			printf "%d,,0,%d,10,,,worker\n", p * 1000, p
		printf "%d,,0,0,1000000,,2000000,\n", 1000000000
	}'
}
# churn N: N processes one after another, each leaving 100 MiB behind
# (more than the tolerance: a leak).
churn() {
	awk -v n="$1" 'BEGIN {
		print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
		for (p = 1; p <= n; p++) {
			printf "%d%06d,,0,%d,100,,,w\n", p, 1, p
			printf "%d%06d,,0,%d,0,,,w\n", p, 2, p
			printf "%d%06d,,0,0,%d,,,\n", p, 3, 100 + 100 * p
		}
	}'
}
alive 100000 > a100k.csv
alive 200000 > a200k.csv
churn 20000 > c20k.csv
churn 40000 > c40k.csv
gpumem-tasks a100k.csv | tail -n 1
gpumem-tasks c20k.csv | tail -n 1
# A snapshot log listing 70000 processes at once, then none.
awk 'BEGIN {
	print "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]"
	for (p = 1; p <= 70000; p++)
		printf "2026/01/01 00:00:00.000, GPU-0, %d, python, 100 MiB\n", p
}' > apps.csv
gpumem-read -q -o out.csv apps.csv
nrec out.csv
[ "$VARIANT" = normal ] || exit 0
for pair in a100k:a200k c20k:c40k; do
	a=$("$TOOLS/maxrss" /dev/null gpumem-tasks -q ${pair%:*}.csv)
	b=$("$TOOLS/maxrss" /dev/null gpumem-tasks -q ${pair#*:}.csv)
	[ "$b" -lt $((a + a / 10)) ] ||
		die "gpumem-tasks ${pair#*:}: peak RSS $b KiB, ${pair%:*}: $a KiB"
done
exit 0
