# tasks, usage, check and report with -j 1, 2 and 7 on what the analysis
# finds hardest, in every output format: 96 (host, gpu) pairs at once (6
# hosts of 16 GPUs), the two-loop scenarios of gpumem synth as nvidia-smi
# writes them (processes polled out of step with the device, polls and
# lines lost, a clock drifting, a pid reused before the next poll, context
# memory, a dip, three tasks waiting at once), a clock that steps back
# (clock_step, tests/lib.sh) with --strict's exit, and a cap
# (--tolerance) changing what is released.  Whatever the threads, the
# bytes on stdout, on stderr and in every file written are -j 1's, and
# so is the exit status.  The .stdout golden shows -j 1's exit status,
# line count and messages.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] ||
	skip "-j equivalence under the sanitizers is tasks/jobs-same.sh and read/jobs*; this one is the long adversarial sweep"
# Six hosts of 16 GPUs, times overlapping across the inputs.
for i in 1 2 3 4 5 6; do
	gpumem-synth -s random --seed $i --host m$i --gpus 16 \
	    --duration 4m -o many$i.csv
done
# The two-loop scenarios, each a node of its own (--host-from-file).
n=0
for s in two-loops lost-polls pid-reuse-fast context dip overlap; do
	n=$((n + 1))
	gpumem-synth -s $s --seed $n --nvsmi nv$n > /dev/null
	cp nv$n/query-gpu.csv node$n-query-gpu.csv
	cp nv$n/compute-apps.csv node$n-compute-apps.csv
done
gpumem-synth -s two-loops --seed 7 --drift 300 --lose-polls 10 \
    --lose-lines 5 --nvsmi nv7 > /dev/null
cp nv7/query-gpu.csv node7-query-gpu.csv
cp nv7/compute-apps.csv node7-compute-apps.csv
# node8: the clock steps back 5 minutes 20 s into the run.
gpumem-synth -s overlap --seed 8 --nvsmi nv8 > /dev/null
clock_step nv8/query-gpu.csv '2026-01-01 00:00:20' 300 > node8-query-gpu.csv
clock_step nv8/compute-apps.csv '2026-01-01 00:00:20' 300 > node8-compute-apps.csv
# Single-loop streams: pid reuse, a leak, lost samples.
gpumem-synth -s pid-reuse --host reuse -o reuse.csv
gpumem-synth -s leak --host leaky -o leak.csv
gpumem-synth -s missing --host holes -o holes.csv
logs=$(ls node*-*.csv)
set -- many*.csv reuse.csv leak.csv holes.csv
hff='--host-from-file=node[0-9]'

for t in csv text md json openmetrics; do
	same_jobs gpumem-tasks -t $t "$@"
done
same_jobs gpumem-tasks -t json "$hff" $logs
same_jobs gpumem-tasks --tolerance 16 "$hff" $logs reuse.csv
same_jobs gpumem-tasks --strict "$hff" $logs
same_jobs gpumem-usage "$hff" $logs holes.csv
same_jobs gpumem-usage -t json --every 30s "$@"
same_jobs gpumem-usage --every 1m "$hff" $logs
same_jobs gpumem-check --max-leak 100 "$hff" $logs "$@"
same_jobs gpumem-report "$hff" $logs leak.csv > /dev/null
echo "report: the same"

# check's files (JUnit, Markdown, JSON, OpenMetrics): each -j in its own
# directory, the inputs named alike from there.
for j in 1 2 7; do
	mkdir j$j
	rc=0
	(cd j$j && gpumem-check -j $j --max-leak 100 --max-delay 10 \
	    --junit c.xml --markdown c.md --json c.json --openmetrics c.prom \
	    "$hff" $(for f in $logs "$@"; do echo "../$f"; done) \
	    > c.out 2> c.err) || rc=$?
	echo $rc > j$j/c.exit
done
for j in 2 7; do
	for f in c.xml c.md c.json c.prom c.out c.err c.exit; do
		cmp -s j1/$f j$j/$f || die "check -j $j: $f differs"
	done
done
echo "check files: exit $(cat j1/c.exit); $(cat j1/c.xml j1/c.md j1/c.json \
    j1/c.prom | wc -l) lines, the same"
