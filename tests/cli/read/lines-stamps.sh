# Date lines of scripts and loggers above noheader rows are the rows'
# clock, as date(1) lines are:
#   echo "[$(date '+%F %T')] GPU Status:"; nvidia-smi --query-gpu=... --format=csv,noheader
#   logging.info("GPU Status:"); print(nvidia-smi ...)  (Python logging's
#   default "2026-01-01 00:00:05,250 INFO root: ..." before the rows)
# in local time (TZ=UTC here).  A row whose first column is such a time
# (", " after it) is still a row.
. "$TESTS/lib.sh"
awk 'BEGIN {
	for (p = 0; p < 4; p++) {
		printf "[2026-01-01 00:%02d:%02d] GPU Status:\n", p, 5 * p > "bracket.log"
		printf "2026-01-01 00:%02d:%02d,250 INFO root: GPU Status:\n", p, 5 * p > "pylog.log"
		for (g = 0; g < 2; g++) {
			printf "%d, %d MiB, 24576 MiB\n", g, 100 * p + g > "bracket.log"
			printf "%d, %d MiB, 24576 MiB\n", g, 100 * p + g > "pylog.log"
			printf "2026-01-01 00:%02d:%02d, %d, %d MiB, 24576 MiB\n", p, 5 * p, g, 100 * p + g > "rows.log"
			printf "%d000000000,,%d,0,%d,,24576,\n", 1767225600 + 65 * p, g, 100 * p + g > "want"
			printf "%d250000000,,%d,0,%d,,24576,\n", 1767225600 + 65 * p, g, 100 * p + g > "want-ms"
		}
	}
}'
gpumem-read --fields index,memory.used,memory.total bracket.log | tail -n +2 > got
cmp -s got want || die "bracket.log: records differ: $(diff want got | head -n 5)"
gpumem-read --fields index,memory.used,memory.total pylog.log | tail -n +2 > got
cmp -s got want-ms || die "pylog.log: records differ: $(diff want-ms got | head -n 5)"
gpumem-read --fields timestamp,index,memory.used,memory.total rows.log | tail -n +2 > got
cmp -s got want || die "rows.log: records differ: $(diff want got | head -n 5)"
