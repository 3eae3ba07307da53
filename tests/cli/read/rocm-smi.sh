# AMD's rocm-smi memory report logged in a loop, as users paste it:
#   while :; do date; rocm-smi --showmeminfo vram; sleep 10; done
#   ... | grep Used   (the banners and totals gone)
#   while :; do date; rocm-smi --showmeminfo vram --json; sleep 10; done
# Bytes read as MiB; a date line above a report is its time, else --start
# and --interval; detected without --format.  The records are exact.
. "$TESTS/lib.sh"
# Three reports 10 s apart from 2026-01-01T00:00:00Z (TZ=UTC), GPU g of 2
# using 1000 p + 100 g + 7 MiB of 24576, as rocm-smi 6 prints them.
awk 'BEGIN {
	for (p = 0; p < 3; p++) {
		d = sprintf("Thu Jan  1 00:00:%02d UTC 2026", 10 * p)
		print d > "text.log"
		print d > "json.log"
		print "============================ ROCm System Management Interface ============================" > "text.log"
		print "================================== Memory Usage (Bytes) ==================================" > "text.log"
		j = "{"
		for (g = 0; g < 2; g++) {
			u = (1000 * p + 100 * g + 7) * 1048576
			printf "GPU[%d]\t\t: VRAM Total Memory (B): 25769803776\n", g > "text.log"
			printf "GPU[%d]\t\t: VRAM Total Used Memory (B): %.0f\n", g, u > "text.log"
			j = j sprintf("%s\"card%d\": {\"VRAM Total Memory (B)\": \"25769803776\", \"VRAM Total Used Memory (B)\": \"%.0f\"}", g ? ", " : "", g, u)
			printf "%d000000000,,%d,0,%d,,24576,\n", 1767225600 + 10 * p, g, 1000 * p + 100 * g + 7 > "want"
			printf "%d000000000,,%d,0,%d,,,\n", 1767225600 + 10 * p, g, 1000 * p + 100 * g + 7 > "want-used"
		}
		print j "}" > "json.log"
		print "==========================================================================================" > "text.log"
		print "================================== End of ROCm SMI Log ===================================" > "text.log"
	}
}'
for f in text json; do
	gpumem-read $f.log | tail -n +2 > got
	cmp -s got want || die "$f.log: records differ: $(diff want got | head -n 5)"
done
grep Used text.log > used.log
gpumem-read --start 2026-01-01T00:00:00Z --interval 10s used.log | tail -n +2 > got
cmp -s got want-used || die "used.log: records differ: $(diff want-used got | head -n 5)"
# Without a date line or --start: refused, saying what to give.
rc=0; gpumem-read used.log > /dev/null || rc=$?
expect_eq "used.log without --start: exit" $rc 2
