# A home-made logger writing nvidia-smi's column names with its own clock,
# seconds since it began (time.time() - t0):
#   timestamp,index,memory.used,memory.total
#   0.0,0,100,24576
# The timestamps are read as seconds after --start (said once), refused
# once without it, never as dates of 1970 nor as one message per row.
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "timestamp,index,memory.used,memory.total" > "elapsed.csv"
	for (n = 0; n < 12; n++) {
		printf "%.1f,0,%d,24576\n", n / 2, 100 * (n + 1) > "elapsed.csv"
		printf "%d%09d,,0,0,%d,,24576,\n", 1767225600 + int(n / 2), (n % 2) * 500000000, 100 * (n + 1) > "want"
	}
}'
gpumem-read --start 2026-01-01T00:00:00Z elapsed.csv | tail -n +2 > got
cmp -s got want || die "elapsed.csv: records differ: $(diff want got | head -n 5)"
rc=0; gpumem-read elapsed.csv > /dev/null || rc=$?
expect_eq "elapsed.csv without --start: exit" $rc 2
