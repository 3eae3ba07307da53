# read -j N on damaged inputs: the same diagnostics as -j 1, in the same
# order, the same summaries and exit status; under --strict the run stops
# where -j 1 stops, having written the same records.  Damage is made as
# life makes it: sed, awk, head -c, cat of two recordings, shuffled rows.
. "$TESTS/lib.sh"
same() {
	same_jobs gpumem-read "$@"
}
damaged_inputs
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
