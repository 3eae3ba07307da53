# Declared tasks (--tasks) that overlap on one GPU, judged from the
# query-gpu log alone.  The truth is gpumem synth's: the --tasks file is
# written from its start and end columns with date, as a user writes the
# times of CI jobs, and the found table must match it (delays within one
# sampling interval, MiB within the tolerance, the same status).  The
# declared times are also moved off the true ones by half an interval
# (a job's clock is not the process's).
. "$TESTS/lib.sh"

# jobs TRUTH DS DE: the --tasks CSV of the truth's tasks, starts moved by
# DS ms and ends by DE ms.
jobs() {
	echo name,gpu,start,end
	tail -n +2 "$1" | while IFS=, read -r host gpu pid name start end rest; do
		echo "$name,$gpu,$(iso $((start + $2 * 1000000))),$(iso $((end + $3 * 1000000)))"
	done
}

# want TRUTH DS DE: the truth as --tasks must find it: no pid, the
# declared times, the delay from the declared end (0 when the memory
# came back before it, released then at the declared end).
want() {
	awk -F, -v OFS=, -v ds="$2" -v de="$3" 'NR > 1 {
		$3 = 0
		$5 = sprintf("%.0f", $5 + ds * 1e6)
		$6 = sprintf("%.0f", $6 + de * 1e6)
		if ($10 != "") {
			$10 -= de / 1000
			if ($10 < 0) { $10 = 0; $9 = $6 }
		}
	} 1' "$1"
}

# check SCENARIO INTERVAL_S DS DE
check() {
	rm -rf nv
	gpumem-synth -s "$1" --interval "$2"s --start 2026-01-01T00:00:00.5Z \
	    --nvsmi nv --truth truth.csv
	jobs truth.csv "$3" "$4" > jobs.csv
	want truth.csv "$3" "$4" > want.csv
	gpumem-tasks -q --tasks jobs.csv nv/query-gpu.csv > got.csv ||
		die "$*: exit $?"
	sh "$TESTS/tools/taskcmp.sh" want.csv got.csv "$2" ||
		die "$*: differs from the truth"
}

for s in concurrent two-waiting slow-release; do
	for iv in 0.5 1 2; do
		check $s $iv 0 0
		half=$(awk -v i=$iv 'BEGIN { print i * 500 }')
		check $s $iv -$half $half
		check $s $iv 0 -$half
	done
done

# Issue 14: at 2 s, jobs that end half a second before their processes.
# Truth 20.5 s, 4.5 s and 0.5 s (once 41 s, 21 s and 1 s with held 0).
check concurrent 2 0 -500
cut -d, -f4,7-12 want.csv
cut -d, -f4,7-12 got.csv
