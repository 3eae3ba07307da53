# A home-made logger (pynvml, torch): epoch milliseconds, MB (10^6 bytes)
# with decimals, device rows (pid 0) and process rows in one CSV, written
# with awk from a synth recording as such a logger prints it (it lists the
# processes present; it never prints a process at 0).  Read with an inline
# --map, the tasks are the recording's truth.
. "$TESTS/lib.sh"
gpumem-synth -s demo --truth truth.csv > stream.csv
awk -F, 'NR == 1 { print "ts,gpu_id,pid,proc,mem_used_mb"; next }
$4 != 0 && $5 == 0 { next }
{ printf "%s,%s,%s,\"%s\",%.3f\n", substr($1, 1, length($1) - 6), $3, $4, $8, $5 * 1.048576 }' \
	stream.csv > log.csv
map=timestamp=ts:ms,gpu=gpu_id,pid=pid,process_name=proc,memory_used=mem_used_mb:MB
gpumem-tasks -q --map "$map" log.csv > got.csv
sh "$TESTS/tools/taskcmp.sh" truth.csv got.csv || die "tasks through --map"
# The device rows read back as the recording's, MiB for MiB.
gpumem-read --map "$map" log.csv | awk -F, '$4 == 0 { print $1, $3, $5 }' > dev.txt
awk -F, 'NR > 1 && $4 == 0 { print $1, $3, $5 }' stream.csv > want.txt
cmp want.txt dev.txt || die "device rows differ"
# Epoch seconds with a fraction, and a unit printed in the cell (GiB)
# that wins over the map's.
printf 'ts,mem\n1767225600.25,1.5 GiB\n1767225601.5,2048\n' > s.csv
gpumem-read --map timestamp=ts:s,memory_used=mem s.csv
