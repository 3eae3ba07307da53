# Home-made loggers' CSVs read through --map:
# - a column of seconds since the logger began (time.time() - t0): read as
#   seconds after --start (said, unless mapped as COLUMN:elapsed), refused
#   without --start, never as dates of 1970;
# - --start given for a log whose rows carry their own dates is said to
#   be unused, not dropped in silence;
# - a quoted process name spanning lines (RFC 4180, a command line with a
#   line end) is one record, not a warning per line.
. "$TESTS/lib.sh"
map=timestamp=elapsed_s,gpu=gpu,memory_used=mem_used_mb
# A row every 0.5 s from 0.0, GPU 0 using 100 * (n + 1) MB.
awk 'BEGIN {
	print "elapsed_s,gpu,mem_used_mb" > "el.csv"
	for (n = 0; n < 6; n++) {
		printf "%.1f,0,%d\n", n / 2, 100 * (n + 1) > "el.csv"
		printf "%d%09d,,0,0,%d,,,\n", 1767225600 + int(n / 2), (n % 2) * 500000000, 100 * (n + 1) > "want"
	}
}'
gpumem-read --start 2026-01-01T00:00:00Z --map $map el.csv | tail -n +2 > got
cmp -s got want || die "el.csv: records differ: $(diff want got | head -n 5)"
gpumem-read -q --start 2026-01-01T00:00:00Z --map ${map%%,*}:elapsed,${map#*,} el.csv | tail -n +2 > got
cmp -s got want || die "el.csv with :elapsed: records differ"
rc=0; gpumem-read --map $map el.csv > /dev/null || rc=$?
expect_eq "el.csv without --start: exit" $rc 2
# Epoch seconds, and --start with them: said.
awk -F, 'NR > 1 { printf "%d,0,%s\n", 1767225600 + $1, $3 } NR == 1 { print }' el.csv > epoch.csv
gpumem-read --start 2026-01-01T00:00:00Z --map $map epoch.csv > /dev/null
# pynvml logger with the process's command line in quotes, a line end in it.
printf 'ts,gpu_id,pid,proc,mem_used_mb\n' > procs.csv
printf '1767225610,0,9001,"python3 train.py\n--epochs 3",2560\n' >> procs.csv
printf '1767225620,0,9001,"python3 train.py\n--epochs 3",2600\n' >> procs.csv
printf '1767225630,0,9001,"python3 train.py, --resume",2700\n' >> procs.csv
gpumem-read --map timestamp=ts,gpu=gpu_id,pid=pid,process_name=proc,memory_used=mem_used_mb procs.csv
