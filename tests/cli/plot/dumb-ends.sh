# Squeezed text charts keep the end lines under the plot area's top
# border and the numbered markers off the curves' line.  synth's leak (2
# marks, ending at 00:01:00 and 00:01:20):
# - 110x16 (a plot area 6 lines high, where 0.97 of it rounds to the top
#   border): gnuplot draws the border over the end lines, so a gnuplot
#   that draws them in front of it (a wrapper changing "back" to "front"
#   in each "set arrow" line) shows where they end: the frame's top line
#   is plain, and the line under it holds each end line ("N |").
# - 110x14 (4 lines: the markers' row and the curves' top, the total
#   line, rounded to one line): each mark the list says drawn shows its
#   number inside the frame on a line with no curve on it (no * # $ % @
#   &), and the total's line (%) is under the markers' line.
# - Two panels (demo) 80x24: GPU 1's plot area is 2 lines high, no line
#   for markers above its curves: the list says its 2 marks had no room.
# The golden output shows the charts.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
# The lines inside the frame of a one-panel chart, the y axis cut off.
inside() {
	awk '/^ *[0-9]* *\+-+\+ *$/ { f++; next }
	    f == 1 { sub(/^[^|]*\|/, ""); print }' "$1"
}
gpumem-synth -s leak > leak.csv
real=$(command -v gnuplot)
mkdir fake
cat > fake/gnuplot <<SH
#!/bin/sh
sed '/^set arrow/s/ back\$/ front/' | "$real" "\$@"
SH
chmod +x fake/gnuplot
PATH=$PWD/fake:$PATH gpumem-plot -q --utc -T dumb --size 110x16 leak.csv > ends.txt ||
	die "ends: exit $?"
cat ends.txt
expect_eq "ends: plain borders" "$(grep -c '^ *[0-9]* *+-*+ *$' ends.txt)" 2
expect_eq "ends: under the top border" \
    "$(awk '/^ *[0-9]* *\+-+\+ *$/ { getline; sub(/^[^|]*\|/, ""); print; exit }' ends.txt |
    grep -o '[0-9] |' | tr '\n' ' ')" "1 | 2 | "
gpumem-plot --utc -T dumb --size 110x14 leak.csv > leak.txt 2> leak.err ||
	die "leak: exit $?"
cat leak.txt leak.err
inside leak.txt > inside.txt
sed -n 's/^gpumem-plot: mark \([0-9]*\) at .*[a-z]$/\1/p' leak.err > drawn
expect_eq "leak: marks drawn, by the list" "$(tr '\n' ' ' < drawn)" "1 2 "
while read -r n; do
	grep -q "[^0-9]$n |" inside.txt ||
		die "mark $n not inside the plot area: $(cat leak.txt)"
	if grep "[^0-9]$n |" inside.txt | grep -q '[*#$%@&]'; then
		die "mark $n on a curve: $(cat leak.txt)"
	fi
done < drawn
m=$(grep -n '[^0-9]1 |' inside.txt | cut -d: -f1)
t=$(grep -n '%%%' inside.txt | head -n 1 | cut -d: -f1)
[ "$t" -gt "$m" ] || die "the total's line ($t) not under the markers' ($m)"
gpumem-synth -s demo > demo.csv
gpumem-plot --utc -T dumb --size 80x24 demo.csv > demo.txt 2> demo.err ||
	die "demo: exit $?"
cat demo.txt demo.err
expect_eq "demo: GPU 1 no room" \
    "$(grep -c '^gpumem-plot: mark [0-9]* at .*: gpu1 .* (not drawn: no room)$' demo.err)" 2
expect_eq "demo: the count" \
    "$(grep -c '^gpumem-plot: GPU 1: 2 of 2 marks had no room on the chart$' demo.err)" 1
