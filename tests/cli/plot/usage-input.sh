# plot reads the CSV of gpumem usage too: the curves drawn from it are
# those drawn from the record stream itself (the same points reach
# gnuplot, but for GPU 1's attributed area, which the stream stacks on
# the leak it knows of; a usage curve has no tasks to mark), and the
# buckets of --every are drawn as well.
. "$TESTS/lib.sh"
gpumem-synth -s demo > demo.csv
gpumem-plot --script demo.csv > stream.gp || die "stream: exit $?"
gpumem-usage demo.csv | gpumem-plot --script > usage.gp || die "usage: exit $?"
blocks() { sed -n '/^\$g[01]_\(unattr\|usage\|total\)\|^\$g0_attr/,/^EOD$/p' "$1"; }
blocks stream.gp > a
blocks usage.gp > b
cmp -s a b || die "the curves differ: $(diff a b | head -5)"
grep -q 'title .GPU 0: 24.0 GiB total.$' usage.gp || die "no task count expected from a usage curve"
gpumem-usage --every 10s demo.csv > every.csv
gpumem-plot --script every.csv > every.gp || die "every: exit $?"
expect_eq "blocks from --every" "$(grep -c '<< EOD$' every.gp)" 8
# --gpu selects from a usage curve.
gpumem-plot --script --gpu 1 every.csv > one.gp || die "--gpu: exit $?"
expect_eq "blocks of GPU 1" "$(grep -c '<< EOD$' one.gp)" 4
grep -q '^\$g0_usage' one.gp || die "GPU 1 is not the only panel"
exit 0
