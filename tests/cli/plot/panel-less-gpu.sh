# A GPU known only from its processes (compute-apps rows, no device
# sample: a query-gpu loop run with -i 1 while compute-apps lists every
# GPU) has no panel, and it changes nothing of the chart of the GPU
# after it: the leak scenario moved to GPU 1 behind such a GPU 0 gives
# the marks of the leak scenario alone, each drawn.  The chart's room for
# each mark was kept a GPU each where the chart numbers panels: GPU 1's
# marks were looked up under GPU 0 (both said "not drawn: no room") and
# written past GPU 0's room (ASan: heap-buffer-overflow in
# chart_panel_marks).  Text and SVG.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
gpumem-synth -s leak > leak.csv
awk -F, -v OFS=, 'NR == 1 {
		print
		print "1767225600000000000,,0,500,100,,,only-procs"
		print "1767225601000000000,,0,500,100,,,only-procs"
		next
	}
	{ $3 = 1; print }' leak.csv > odd.csv
for t in dumb svg; do
	size=100x30	# characters
	[ $t = dumb ] || size=1200x400
	gpumem-plot --utc -T $t --size $size leak.csv 2> err.txt > alone.out ||
		die "$t, alone: exit $?: $(cat err.txt)"
	grep mark err.txt | sed 's/: gpu0 /: gpu1 /' > want.txt
	expect_eq "$t: the scenario's marks" "$(wc -l < want.txt | tr -d ' ')" 2
	gpumem-plot --utc -T $t --size $size odd.csv 2> err.txt > odd.out ||
		die "$t: exit $?: $(cat err.txt)"
	expect_eq "$t: the marks" "$(grep mark err.txt)" "$(cat want.txt)"
	! grep -q 'no room' err.txt || die "$t: $(cat err.txt)"
done
# The text: one panel, GPU 1's, with both numbers on the row of marks.
expect_eq "text: panels" "$(gpumem-plot --utc -T dumb --size 100x30 odd.csv 2> /dev/null |
    grep -c 'GPU [0-9]*:')" 1
gpumem-plot --utc -T dumb --size 100x30 odd.csv 2> /dev/null |
	grep -q '^ *[0-9]* |.*[^0-9]1 |.*[^0-9]2 |' || die "text: the marks not drawn"
# The SVG: a tooltip a mark.
expect_eq "svg: tooltips" "$(grep -c '<title>[12]\. ' odd.out)" 2
