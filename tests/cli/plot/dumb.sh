# Text charts: --terminal dumb draws in characters, sized by --size; the
# marks are written on it.
. "$TESTS/lib.sh"
gpumem-synth -s leak | gpumem-plot -T dumb --size 110x30 > chart.txt || die "exit $?"
expect_eq "lines" "$(wc -l < chart.txt | tr -d ' ')" 30
grep -q 'GPU 0: 16.0 GiB total, 2 tasks, 1 leaked' chart.txt || die "no panel title"
grep -q '4242 python3 launch.py --listen' chart.txt || die "the leak is not written"
grep -q '11.0 GiB never came back' chart.txt || die "the leaked memory is not written"
grep -q '4300 python3: 0 s' chart.txt || die "the release is not written"
exit 0
