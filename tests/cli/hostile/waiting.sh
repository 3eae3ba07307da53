# Many tasks waiting while memory comes back a little at each sample: the
# search for who gave it back prunes the sets that cannot explain the
# drop, so 20 tasks of a TiB each and 20000 samples returning 100 MiB at a
# time are judged at once (they took minutes when every set of the last
# 16 was weighed at every sample).  A hang guard of two minutes, not a
# timing: the answer is the point.
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
exit 0
