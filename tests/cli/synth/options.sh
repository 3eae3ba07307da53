# The two-loop options: refused for a one-loop scenario and out of their
# range, --noheader without --nvsmi (exit 2, a message naming the
# option); a bad one stops nothing else.  The seed makes the same run,
# another seed another one.
. "$TESTS/lib.sh"
for args in "-s leak --drift 5" "-s clean --proc-interval 1s" \
    "-s demo --lose-polls 1" "-s dip --lose-polls 101" \
    "-s dip --lose-lines -1" "-s dip --drift 100001" \
    "-s dip --drift -100001" "-s dip --drift 1.5" \
    "-s dip --proc-interval 0" "-s dip --proc-offset soon" \
    "-s restart --noheader"; do
	gpumem-synth $args > out.csv 2>&1 && die "$args: exit 0"
	echo "$args: exit $?: $(cat out.csv)"
done
gpumem-synth -s dip --drift -100000 --lose-polls 100 --lose-lines 100 \
    --proc-interval 1ms --proc-offset 0 --duration 2s > /dev/null ||
	die "limits: exit $?"
gpumem-synth -s two-loops --truth t1.csv > a.csv
gpumem-synth -s two-loops --truth t2.csv > b.csv
cmp -s a.csv b.csv && cmp -s t1.csv t2.csv || die "the same seed, another run"
gpumem-synth -s two-loops --seed 2 --truth t2.csv > b.csv
cmp -s t1.csv t2.csv && die "--seed 2: the same tasks"
cmp -s a.csv b.csv && die "--seed 2: the same stream"
exit 0
