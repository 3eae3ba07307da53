# gnuplot's dumb terminal draws 1024 characters a side at most (asked
# for more, it draws 79x24 and says nothing: 64 GPUs at 18 lines a panel
# came out as 24 lines, panels drawn over one another).  A text chart of
# more than 56 panels is drawn as charts of 56 panels at most, one below
# another: each is the chart of its GPUs alone (--gpu), byte for byte,
# and the marks listed are those of both (a terminal of 300 lines: the
# second chart's 8 panels fill them, its panels higher than the first's,
# and their marks placed by their own plot areas).  A --size over 1024 is
# refused (plot and gantt); a text Gantt chart grows to 1024 lines at
# most and says how many rows had no room.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
export COLUMNS=80 LINES=300
gpumem-synth -s random --gpus 64 --duration 600s > r64.csv
gpumem-plot --utc -T dumb r64.csv > all.txt 2> all.err || die "exit $?: $(cat all.err)"
expect_eq "lines" "$(wc -l < all.txt | tr -d ' ')" $((18 * 56 + 4 + 299))
expect_eq "panels" "$(grep -c ' GPU [0-9]*: ' all.txt)" 64
expect_eq "charts" "$(grep -c 'GPU memory, ' all.txt)" 2
gpus() { seq -s, "$1" "$2"; }
gpumem-plot --utc -T dumb --gpu "$(gpus 0 55)" r64.csv > one.txt 2> one.err
gpumem-plot --utc -T dumb --gpu "$(gpus 56 63)" r64.csv > two.txt 2> two.err
head -n 1012 all.txt | cmp -s - one.txt || die "the first chart is not GPUs 0-55's"
tail -n +1013 all.txt | cmp -s - two.txt || die "the second chart is not GPUs 56-63's"
expect_eq "the marks" "$(grep mark all.err)" "$(cat one.err two.err | grep mark)"
! grep -q 'no room' all.err || die "$(grep 'no room' all.err)"
# Over 1024 a side: refused, plot and gantt.
for tool in gpumem-plot gpumem-gantt; do
	for size in 80x1025 1025x30; do
		rc=0
		$tool -T dumb --size $size r64.csv > out.txt 2> err.txt || rc=$?
		expect_eq "$tool --size $size: exit" $rc 2
		expect_eq "$tool --size $size" "$(cat err.txt)" \
		    "$tool: --size $size: a text chart is 1024x1024 characters at most (gnuplot's dumb terminal)"
	done
	$tool -T dumb --size 80x1024 r64.csv > out.txt 2> /dev/null || die "$tool 80x1024: exit $?"
	expect_eq "$tool at 80x1024" "$(wc -l < out.txt | tr -d ' ')" 1024
done
export LINES=24
# A Gantt chart of 1493 rows (--max-rows 5000): 1024 lines, the rest said.
gpumem-synth -s random --gpus 64 --duration 7200s > r64h.csv
gpumem-gantt --utc -T dumb --max-rows 5000 r64h.csv > gantt.txt 2> gantt.err ||
	die "gantt: exit $?: $(cat gantt.err)"
expect_eq "gantt lines" "$(wc -l < gantt.txt | tr -d ' ')" 1024
grep -q '^gpumem-gantt: [0-9]* of 1493 rows had no room on the chart (80x1024): not shown$' gantt.err ||
	die "gantt: $(cat gantt.err)"
