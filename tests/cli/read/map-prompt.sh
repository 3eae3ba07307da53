# A CSV read through a shipped map whose header is not its first line: a
# shell prompt echoed by a terminal log ("root@host:~# xpu-smi dump ..."),
# a script's banner.  The lines before the header are skipped, counted,
# as the nvidia-smi reader skips them; a file whose header never comes
# is refused naming the line of most fields.
. "$TESTS/lib.sh"
GPUMEM_MAPS="$TESTS/../formats/maps"
export GPUMEM_MAPS
# xpu-smi dump -d 0 -m 0,18 from 00:00:10 on 2026-01-01 (UTC), a row each
# 10 s, GPU 0 using 256 * n MiB; the records they are.
awk 'BEGIN {
	print "root@host:~# xpu-smi dump -d 0 -m 0,18" > "xpu.log"
	print "=== GPU memory log, started by monitor.sh ===" > "xpu.log"
	print "Timestamp, DeviceId, GPU Utilization (%), GPU Memory Used (MiB)" > "xpu.log"
	for (n = 1; n <= 5; n++) {
		printf "00:00:%02d.000,    0, %d.00, %d.00\n", 10 * n, 10 * n, 256 * n > "xpu.log"
		printf "%d000000000,,0,0,%d,,,\n", 1767225600 + 10 * n, 256 * n > "want"
	}
}'
gpumem-read --map xpu-smi --start 2026-01-01 xpu.log | tail -n +2 > got
cmp -s got want || die "xpu.log: records differ: $(diff want got | head -n 5)"
# The header of another tool (wrong map): refused, naming that header.
printf 'user@host:~$ ./log.sh\nts,gpu_id,mem_used_mb\n1767225610,0,2560\n' > other.csv
rc=0; gpumem-read --map amd-smi other.csv || rc=$?
expect_eq "other.csv: exit" $rc 2
