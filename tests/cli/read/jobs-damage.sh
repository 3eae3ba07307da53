# read -j N on damaged inputs: the same diagnostics as -j 1, in the same
# order, the same summaries and exit status; under --strict the run stops
# where -j 1 stops, having written the same records.  Damage is made as
# life makes it: sed, awk, head -c, cat of two recordings, shuffled rows.
. "$TESTS/lib.sh"
same() {
	same_jobs gpumem-read "$@"
}
gpumem-synth -s demo --nvsmi a > /dev/null
gpumem-synth -s multi-gpu --nvsmi b > /dev/null
gpumem-synth -s random --duration 20m --gpus 2 --host h -o s.csv
Q=a/query-gpu.csv
# Twelve bad rows (more than the ten shown), a bad date, a cut last row.
awk 'NR % 37 == 5 { sub(/ MiB/, " MB?") } { print }' $Q > bad-rows.csv
sed '30s/2026\/01\/01/2026\/13\/01/' b/query-gpu.csv | head -c -9 > bad-date.csv
# Rows in reverse order, some pairs swapped: steps back, late records.
awk 'NR == 1 { print; next } { l[NR] = $0 } END { for (i = NR; i >= 2; i -= 1) if (i % 50 < 5) print l[i - (i % 50 < 3 ? 0 : 1)]; else print l[i] }' \
    b/compute-apps.csv > shuffled.csv
# Two recordings joined with cat: the clock steps back.
cat $Q $Q > joined.csv
# A record stream with bad lines, and one cut.
awk 'NR % 500 == 7 { print "1,h,0,7,bad,,,x" } { print }' s.csv > s-bad.csv
head -c -3 s.csv > s-cut.csv
awk 'NR == 3000 { print "1,h,0,7,bad,,,x" } { print }' s.csv > s-late.csv
printf 'not a log\n' > junk.txt
set -- bad-rows.csv bad-date.csv shuffled.csv joined.csv s-bad.csv s-cut.csv \
    a/compute-apps.csv b/query-gpu.csv
same "$@"
same --window 8 "$@"
same junk.txt "$@" missing.csv
same -v --window 8 "$@"
# --strict: the first problem ends the run (exit 2) at the same point.
same --strict s.csv s-bad.csv a/query-gpu.csv
same --strict b/query-gpu.csv s-late.csv s.csv
same --strict --window 8 a/query-gpu.csv shuffled.csv s.csv
same --strict s.csv joined.csv b/compute-apps.csv
