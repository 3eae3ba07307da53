# A release delay is rounded to what the sampling interval can tell: whole
# seconds at 1 s, tenths at 100 ms, to the nearest.  job (pid 9) holds
# 2048 MiB from 00:00:02 and ends at 00:00:10; its memory is back at the
# sample REL ms after 00:00:00 (the one sample off the STEP ms grid).
. "$TESTS/lib.sh"
stream() {
	awk -v rel="$1" -v step="$2" 'BEGIN {
		print "timestamp,host,gpu,process_id,memory_used," \
		    "memory_free,memory_total,process_name"
		for (ms = 0; ms <= 20000; ms += step) {
			if (ms > 10000 && ms < rel && ms + step > rel)
				ms = rel
			used = ms >= 2000 && ms < rel ? 2048 : 0
			# 2026-01-01T00:00:00Z + ms
			printf "1767225%06d000000,,0,0,%d,%d,16384,\n",
			    600000 + ms, used, 16384 - used
			if (ms >= 2000 && ms <= 10000)
				printf "1767225%06d000000,,0,9,%d,,,job\n",
				    600000 + ms, ms < 10000 ? 2048 : 0
		}
	}'
}
# REL STEP: the delay, then what the table shows.
while read -r rel step want; do
	stream "$rel" "$step" > s.csv
	expect_eq "$((rel - 10000)) ms at $step ms" \
	    "$(gpumem-tasks -q s.csv | sed -n 2p | cut -d, -f10)" "$want"
done <<'CASES'
12600 1000 3
12400 1000 2
13000 1000 3
12460 100 2.5
12440 100 2.4
CASES
