# Many tasks waiting while memory comes back a little at each sample: the
# search for who gave it back prunes the sets that cannot explain the
# drop, so 20 tasks of a TiB each and 20000 samples returning 100 MiB at a
# time are judged at once (they took minutes when every set of the last
# 16 was weighed at every sample); tasks declared by the hundred
# thousand are capped, and only the started ones are looked at.  A hang
# guard of two minutes, not a timing: the answer is the point.
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	s = 1000000000
	printf "0,,0,0,100,,,\n"
	for (p = 1; p <= 20; p++)
		printf "%.0f,,0,%d,%d,,,big\n", s, p, 1000000 + p
	printf "%.0f,,0,0,%d,,,\n", 2 * s, 20000310
	for (p = 1; p <= 20; p++)
		printf "%.0f,,0,%d,0,,,big\n", 3 * s, p
	u = 20000310
	for (i = 0; i < 20000; i++) {
		u -= 100
		printf "%d%09d,,0,0,%d,,,\n", 4 + i, 0, u
	}
}' > w.csv
timeout 120 gpumem-tasks w.csv
echo "exit $?"
# 100000 tasks declared on one GPU of a device-only log: 4096 are kept
# (every device sample weighs them), the others left out and counted.
gpumem-synth -s demo --nvsmi logs
awk 'BEGIN {
	print "name,gpu,start,end"
	for (i = 0; i < 100000; i++)
		printf "t%d,0,2026-01-01T00:00:%02dZ,2026-01-01T00:03:00Z\n", i, i % 60
}' > jobs.csv
timeout 120 gpumem-tasks --tasks jobs.csv logs/query-gpu.csv | tail -n 1
echo "exit $?"
# 4097 processes end on one GPU and their memory never comes back: the
# first, of 10000 MiB, is given up as leaked when the 4097th ends, and the
# level it is measured against takes its memory in, so a task that ends
# later and gives its 500 MiB back is still seen releasing them.
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	printf "0,,0,0,100,,,\n"
	printf "1000000000,,0,1,10000,,,first\n"
	for (p = 2; p <= 4097; p++)
		printf "1000000000,,0,%d,1,,,small\n", p
	printf "1000000000,,0,0,14196,,,\n"
	for (p = 1; p <= 4097; p++)
		printf "2000000000,,0,%d,0,,,%s\n", p, p == 1 ? "first" : "small"
	printf "3000000000,,0,5000,500,,,late\n"
	printf "3000000000,,0,0,14696,,,\n"
	printf "4000000000,,0,5000,0,,,late\n"
	printf "5000000000,,0,0,14196,,,\n"
}' > evict.csv
gpumem-tasks evict.csv | grep -E ',(first|late),'
exit 0
