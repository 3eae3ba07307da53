# A fleet's report finishes: 4 nodes of 8 GPUs, 2 h sampled every 10 s
# (gpumem synth, random tasks, about 190 a node).  Placing node-11
# GPU 3's leak label looped for ever (a label moved above another
# overlapped it again by a rounding error, and moved to the same place);
# placement now tries each line of text once.  The page has a section
# per GPU, each with its usage chart.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
for n in 9 10 11 12; do
	gpumem-synth -s random --seed $n --host node-$n --gpus 8 \
	    --interval 10s --duration 2h -o node-$n.csv
done
rc=0; timeout 60 gpumem-report -q -o fleet.html node-*.csv || rc=$?
expect_eq "report: exit" $rc 0
expect_eq "sections" "$(grep -c '^<section class="gpu"' fleet.html)" 32
expect_eq "usage charts" "$(grep -c '^<figure class="chart usage"' fleet.html)" 32
