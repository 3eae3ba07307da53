# Text charts squeezed by --size keep their numbered markers inside the
# plot area, never on its top border (where gnuplot's border hid them):
# plot draws the chart once to learn the lines of each panel's plot
# area, and a row of markers whose line would be the top border takes no
# marker.  synth's leak (2 marks, ending at 00:01:00 and 00:01:20) 110x16
# (a plot area 6 lines high: the first row's line, 0.9225 of it, rounds
# to the border): each mark the list says drawn shows its number inside
# the frame, between the top and bottom border lines, the border lines
# plain.  slow-release 80x12 (a plot area 1 line high: every row on the
# border): the list says each of its 3 marks has no room.  Two panels
# 110x24 (4 and 3 lines).  The golden output shows them.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
gpumem-synth -s leak > leak.csv
gpumem-plot --utc -T dumb --size 110x16 leak.csv > leak.txt 2> leak.err ||
	die "leak: exit $?"
cat leak.txt leak.err
# The frame: its top and bottom lines, what lies between.
awk '/^ *[0-9]* *\+-+\+ *$/ { f++; next } f == 1 { sub(/^[^|]*\|/, ""); print }' \
    leak.txt > inside.txt
expect_eq "frame lines" "$(grep -c '^ *[0-9]* *+--*+ *$' leak.txt)" 2
sed -n 's/^gpumem-plot: mark \([0-9]*\) at .*[a-z]$/\1/p' leak.err > drawn
expect_eq "marks drawn, by the list" "$(tr '\n' ' ' < drawn)" "1 2 "
while read -r n; do
	grep -q "[^0-9]$n |" inside.txt ||
		die "mark $n not inside the plot area: $(cat leak.txt)"
done < drawn
gpumem-synth -s slow-release > slow.csv
gpumem-plot --utc -T dumb --size 80x12 slow.csv > slow.txt 2> slow.err ||
	die "slow: exit $?"
cat slow.txt slow.err
expect_eq "no room" "$(grep -c '^gpumem-plot: mark [0-9]* at .* (not drawn: no room)$' slow.err)" 3
expect_eq "the count" "$(grep -c '^gpumem-plot: GPU 0: 3 of 3 marks had no room on the chart$' slow.err)" 1
gpumem-synth -s random --seed 3 --gpus 2 --interval 10s --duration 3000s -o two.csv
gpumem-plot --utc -T dumb --size 110x24 two.csv || die "two: exit $?"
# Two rows whose lines are one line hold one row of markers: two panels
# 110x30 (plot areas of 7 lines, where the first two rows round to one
# line): each mark the list says drawn shows its number whole inside its
# panel's frame, no digit beside it ("910" was marks 9 and 10 run
# together, "54" marks 5 and 4; the golden 110x24 had them too).
gpumem-plot --utc -T dumb --size 110x30 two.csv > two.txt 2> two.err ||
	die "two 110x30: exit $?"
for gpu in 0 1; do
	awk -v p=$gpu '/^ *[0-9]* *\+-+\+ *$/ { f++; next }
	    f == 2 * p + 1 { sub(/^[^|]*\|/, ""); print }' two.txt > inside$gpu.txt
	sed -n "s/^gpumem-plot: mark \([0-9]*\) at [^ ]*: gpu$gpu .*[a-z]\$/\1/p" two.err > drawn$gpu
	expect_eq "GPU $gpu: marks drawn" "$(wc -l < drawn$gpu)" 10
	while read -r n; do
		grep -q "[^0-9]$n[^0-9]" inside$gpu.txt ||
			die "GPU $gpu: mark $n not whole inside the plot area: $(cat two.txt)"
	done < drawn$gpu
done
