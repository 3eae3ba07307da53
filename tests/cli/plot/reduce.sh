# A 10-million-record input (8 GPUs, 30 h at 100 ms: 8.6 million device
# samples) is reduced before gnuplot sees it: each curve reaches it as at
# most 4 points per pixel column.  Counted in the --script output, where
# every data point is a line of a data block (the attributed area's block
# has each point's time twice, as the corners of its steps, and is closed
# along the top of the leaks under it: its points are its distinct times;
# the markers' blocks are not curves).  (Not timed.)
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "10 million records are too slow under sanitizers"
gpumem-synth -s random --interval 100ms --duration 30h |
	gpumem-plot -v --script --size 1000x800 > big.gp 2> err.txt || die "exit $?"
grep -q '^gpumem-plot: <stdin>: 170[0-9]* records' err.txt || die "input: $(cat err.txt)"
awk '
/<< EOD$/ { name = $1; n = 0; split("", seen); next }
/^EOD$/ { if (n > 4 * 1000) { print name ": " n " points"; bad = 1 } total += n; if (name !~ /_marks$/) blocks++; next }
name ~ /_attr$/ && /^[0-9]/ { if (!($1 in seen)) n++; seen[$1] = 1; next }
name != "" && /^[0-9]/ { n++ }
END {
	if (blocks != 32) { print blocks " blocks, expected 32"; bad = 1 }
	if (total > 32 * 4000) { print total " points"; bad = 1 }
	if (total < 8 * 100) { print "only " total " points"; bad = 1 }
	exit bad
}' big.gp || die "not reduced"
# What -v says is what the script holds.
n=$(sed -n 's/^gpumem-plot: 8 GPUs, \([0-9]*\) points reach gnuplot$/\1/p' err.txt)
expect_eq "points said" "$n" "$(awk '/<< EOD$/{on=1;next} /^EOD$/{on=0} on' big.gp | wc -l | tr -d ' ')"
exit 0
