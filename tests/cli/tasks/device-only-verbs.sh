# The log most people keep is nvidia-smi's device figures alone
# (--query-gpu=memory.used,memory.free): one answer from tasks, check,
# report and gantt, on every synth scenario, and that answer the truth.
# Each scenario's query-gpu log is written as gpumem record writes it
# (--nvsmi), without its compute-apps log.  The truth is synth's: the
# memory still out at the end on each GPU is what its leaked tasks left
# plus what its running tasks hold (a device-only log cannot tell the
# two apart, and says so: note device-only), less what such a task
# already held at the GPU's first sample (memory.used as the log has it:
# a job that began with the log is part of the level it starts from).
# The verbs must agree:
#   tasks   the (unlisted) rows leaked, their MiB per GPU = the truth's,
#           within the tolerance (64 MiB);
#   check   exit 1 when memory is left, 0 when none;
#   report  the leaks card "bad" and never "all memory came back" then;
#   gantt   one LEAKED bar per leaked row.
# Given the compute-apps log beside it, the four verbs agree again.
. "$TESTS/lib.sh"
fail=0
# first.awk: memory.used at each GPU's first sample of the query-gpu log.
cat > first.awk <<'AWK'
NR == 1 { for (i = 1; i <= NF; i++) { if ($i ~ /^ *index$/) ix = i
		if ($i ~ /^ *memory.used/) mu = i }; next }
{ k = $ix + 0; v = $mu; sub(/ MiB/, "", v) }
!(k in first) { first[k] = v + 0 }
END { for (g in first) printf "%s,%s\n", g, first[g] }
AWK
t0=1767225600000000000	# --start, the first sample
perGPU='FNR == NR { first[$1] = $2; next }
FNR > 1 && ($12 == "leaked" || $12 == "running") {
	m[$2] += $12 == "leaked" ? $11 : $8
	if ($5 <= t0) m[$2] -= first[$2] < $8 ? first[$2] : $8 }
END { for (g in m) if (m[g] > 64) printf "%s:%d\n", g, m[g] }'
# verbs WHAT LEAKED CHECK CARD CAME BARS: one verdict, four renderings.
verbs() {
	if [ "$2" -gt 0 ]; then
		[ "$3" -eq 1 ] && [ "$4" = bad ] && [ "$5" -eq 0 ] &&
		    [ "$6" -eq "$2" ] || { echo "$1: the verbs disagree"; fail=1; }
	else
		[ "$3" -eq 0 ] && [ "$4" = good ] && [ "$6" -eq 0 ] ||
		    { echo "$1: the verbs disagree"; fail=1; }
	fi
}
for s in $(gpumem-synth --list | cut -d' ' -f1); do
	rm -rf nv
	gpumem-synth -s "$s" --start 2026-01-01T00:00:00Z --nvsmi nv \
	    --truth truth.csv
	awk -F, -f first.awk nv/query-gpu.csv > first.txt
	truth=$(awk -F, -v t0=$t0 "$perGPU" first.txt truth.csv | sort | tr '\n' ' ')
	gpumem-tasks nv/query-gpu.csv > got.csv 2> tasks.err ||
		die "$s: tasks: exit $?"
	got=$(awk -F, '$12 == "leaked" { m[$2] += $11 }
	    END { for (g in m) printf "%s:%d\n", g, m[g] }' got.csv |
	    sort | tr '\n' ' ')
	nleak=$(awk -F, '$12 == "leaked"' got.csv | wc -l)
	nrow=$(($(wc -l < got.csv) - 1))
	nother=$(awk -F, 'NR > 1 && $13 == "" && $15 !~ /device-only/' got.csv |
	    wc -l)
	rc=0
	gpumem-check -q nv/query-gpu.csv > /dev/null 2>&1 || rc=$?
	gpumem-report -q -o r.html nv/query-gpu.csv 2> /dev/null ||
		die "$s: report: exit $?"
	card=good
	grep -q 'class="card bad"><div class="num">[0-9]*</div><div class="lbl">leaks' r.html &&
		card=bad
	came=$(grep -c 'all memory came back' r.html || :)
	gpumem-gantt -q --text --width 100 nv/query-gpu.csv > g.txt ||
		die "$s: gantt: exit $?"
	bars=$(grep -c ' LEAKED ' g.txt || :)
	echo "$s: truth [$truth] tasks [$got] rows $nrow, leaked $nleak;" \
	    "check $rc; report leaks $card; gantt leaked $bars"
	# Every row is an episode of the curve (no pid in a device-only log).
	[ "$nother" -eq 0 ] || { echo "$s: rows without the note"; fail=1; }
	# The per-GPU figures agree with the truth within the tolerance.
	printf '%s\n%s\n' "$truth" "$got" | awk '
	    NR == 1 { for (i = 1; i <= NF; i++) { split($i, a, ":"); t[a[1]] = a[2] } }
	    NR == 2 { for (i = 1; i <= NF; i++) { split($i, a, ":"); g[a[1]] = a[2] } }
	    END { for (k in t) if (!(k in g) || g[k] - t[k] > 64 || t[k] - g[k] > 64) bad = 1
		  for (k in g) if (!(k in t)) bad = 1
		  exit bad }' || { echo "$s: tasks differ from the truth"; fail=1; }
	# The verbs agree with each other, and with the process log too.
	verbs "$s" "$nleak" $rc $card "$came" "$bars"
	[ "$nleak" -eq 0 ] || grep -q "MiB of it not back at the end" tasks.err ||
		{ echo "$s: tasks said nothing of what is left"; fail=1; }
	gpumem-tasks -q nv/query-gpu.csv nv/compute-apps.csv > full.csv
	fleak=$(awk -F, '$12 == "leaked"' full.csv | wc -l)
	rc=0
	gpumem-check -q nv/query-gpu.csv nv/compute-apps.csv > /dev/null 2>&1 ||
		rc=$?
	gpumem-report -q -o f.html nv/query-gpu.csv nv/compute-apps.csv
	card=good
	grep -q 'class="card bad"><div class="num">[0-9]*</div><div class="lbl">leaks' f.html &&
		card=bad
	came=$(grep -c 'all memory came back' f.html || :)
	gpumem-gantt -q --text --width 100 nv/query-gpu.csv nv/compute-apps.csv > g.txt
	bars=$(grep -c ' LEAKED ' g.txt || :)
	echo "$s with its processes: leaked $fleak; check $rc;" \
	    "report leaks $card; gantt leaked $bars"
	verbs "$s processes" "$fleak" $rc $card "$came" "$bars"
done
[ $fail -eq 0 ] || die "the verdicts differ"
