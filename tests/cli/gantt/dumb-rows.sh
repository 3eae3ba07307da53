# The text (dumb) chart draws each row on a line of its own inside the
# plot area's frame, its label beside it, never on the top or bottom
# border (gnuplot draws the border over the row's bar): gantt draws the
# chart once to learn the lines of the plot area and, at the default
# size, makes it tall enough (it was a line short: the first row lay on
# the top border).  Checked: the task table of synth's burst (30 tasks,
# gpumem tasks made it), 80 columns: the frame holds 30 lines, each with
# its row's label and its pid, in the truth's order; demo (its key takes
# two lines: the first and last rows lay on the borders) likewise with
# its 4 tasks.  With --size too small for the rows (burst 80x20), the
# rows that fit are drawn, the most interesting as --max-rows keeps
# them, the title says how many are not shown and stderr how many had no
# room: the frame's lines, the pids drawn and the count add up to 30.
# The golden output shows the charts.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
# The lines between the frame's top and bottom borders, and the border
# lines themselves (none holding a label).
inside() {
	awk '/^ *\+-+\+ *$/ { f++; next } f == 1' "$1"
}
gpumem-synth -s burst --truth truth.csv | gpumem-tasks -q > burst.csv
gpumem-gantt -q --utc -T dumb burst.csv > burst.txt || die "burst: exit $?"
cat burst.txt
expect_eq "burst: plain borders" "$(grep -c '^ *+-*+ *$' burst.txt)" 2
inside burst.txt | sed -n 's/^ *gpu0 \([0-9]*\) python3 step.py |.*|  $/\1/p' > drawn
awk -F, 'NR > 1 { print $3 }' truth.csv | sort -n > want
expect_eq "burst: rows inside the frame" "$(tr '\n' ' ' < drawn)" "$(tr '\n' ' ' < want)"
expect_eq "burst: lines inside the frame" "$(inside burst.txt | wc -l)" 30
gpumem-synth -s demo > demo.csv
gpumem-gantt -q --utc -T dumb demo.csv > demo.txt || die "demo: exit $?"
cat demo.txt
expect_eq "demo: plain borders" "$(grep -c '^ *+-*+ *$' demo.txt)" 2
expect_eq "demo: rows inside the frame" \
    "$(inside demo.txt | grep -c '^ *gpu[01] [0-9]* python3 [a-z.]* .*|.*|  $')" 4
# Too small: the rows that fit, and how many did not.
gpumem-gantt --utc -T dumb --size 80x20 burst.csv > small.txt 2> small.err ||
	die "small: exit $?"
cat small.txt small.err
expect_eq "small: plain borders" "$(grep -c '^ *+-*+ *$' small.txt)" 2
shown=$(inside small.txt | grep -c '^ *gpu0 [0-9]* python3 step.py |')
expect_eq "small: every line inside a row" "$(inside small.txt | wc -l)" "$shown"
hidden=$(sed -n 's/.*(\([0-9]*\) more tasks not shown) *$/\1/p' small.txt)
expect_eq "small: shown and not shown" $((shown + hidden)) 30
expect_eq "small: said" "$(cat small.err)" \
    "gpumem-gantt: $hidden of 30 rows had no room on the chart (80x20): not shown"
