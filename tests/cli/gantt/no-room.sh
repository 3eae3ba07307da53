# A text on a Gantt row (a delay, a leak) that finds no room beside or on
# its bars is left out, never cut at the plot's right edge.  A log (awk,
# lib.sh's to_end_stream) of 60 s: train.py holds 4 GiB from 00:00:00
# and ends at 00:00:50, its memory never comes back (leaked, to the log's
# end); eval.py holds 2 GiB from 00:00:05 to 00:00:40, back at the last
# sample, 00:00:59 (19 s).
# In text 60 and 56 characters wide (long names, a narrow plot) nothing
# passes the plot's right border: each line of the frame holds only
# blanks after its right border (awk finds the border in the frame's top
# line; the frame's two lines must be there), and each text the script
# asks for is drawn whole; at 66 both texts fit and are drawn.  The
# golden output shows them.  The script: at 420 px the notes are left
# out, at 1200 written.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
to_end_stream > end.csv
for w in 56 60 66; do
	gpumem-gantt -q --utc -T dumb --size ${w}x14 end.csv > $w.txt ||
		die "gantt $w: exit $?"
	cat $w.txt
	# Past the right border of the frame, blanks only (a character
	# of several bytes counted as one).
	LC_ALL=C sed 's/[\xc2-\xf4][\x80-\xbf]*/?/g' $w.txt |
	awk '/^ *\+-+\+ *$/ { if (!r) { t = $0; sub(/ *$/, "", t); r = length(t) }
		f++; next }
	    f == 1 && substr($0, r + 1) ~ /[^ ]/ { print "past: " $0; bad = 1 }
	    END { exit bad || f != 2 }' || die "$w: a text past the plot's right border"
	# Each text the script asks for is drawn whole.
	gpumem-gantt --script -q --utc -T dumb --size ${w}x14 end.csv |
	    sed -n '/^\$notes << EOD/,/^plot/s/^[0-9]* [0-9.]* "\(.*\)"$/\1/p' > asked
	while read -r text; do
		grep -qF "$text" $w.txt || die "$w: '$text' not drawn whole"
	done < asked
done
for s in 420x160 1200x120; do
	gpumem-gantt --script -q --utc --size $s end.csv > $s.gp || die "script $s: exit $?"
	echo "$s: $(sed -n '/^\$notes << EOD/,/^plot/p' $s.gp | grep -v '^#\|EOD\|^plot' | tr '\n' ';')"
done
# A text on its bars that fits is drawn: in the text chart (80
# characters) of synth's burst, the delays of the last rows (61022 to
# 61024) have room only on their bars, to the plot's right border (the
# plot is 49 characters wide); each of their lines holds its delay's
# text whole, whose range holds the truth's delay.
gpumem-synth -s burst --truth truth.csv > burst.csv
gpumem-gantt -q --utc -T dumb burst.csv > burst.txt || die "burst: exit $?"
for pid in 61022 61023 61024; do
	d=$(awk -F, -v p=$pid '$3 == p { print $10 }' truth.csv)
	grep "gpu0 $pid " burst.txt | grep -o '[0-9.]* s ([0-9.]*–[0-9.]* s)' |
	    awk -v d="$d" '{ sub(/.*\(/, ""); split($0, r, "–"); sub(/ s\)/, "", r[2]) }
		r[1] <= d + 0 && d + 0 <= r[2] + 0 { ok = 1 } END { exit !ok }' ||
		die "burst: $pid: no whole delay holding $d s: $(grep "gpu0 $pid " burst.txt)"
done
