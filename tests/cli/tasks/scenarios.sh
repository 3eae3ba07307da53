# Every synth scenario: the task table matches the ground truth (times
# within one sampling interval, MiB within the tolerance, leaks exactly),
# from the record stream and from the nvidia-smi logs of the same run.
# The two-loop scenarios have true times: truth-two-loops.sh checks those.
. "$TESTS/lib.sh"
for s in $(gpumem-synth --list | grep -v " two loops: " | cut -d" " -f1); do
	[ "$s" = random ] && continue
	gpumem-synth -s "$s" --truth truth.csv > stream.csv
	gpumem-tasks -q stream.csv > got.csv || die "$s: exit $?"
	sh "$TESTS/tools/taskcmp.sh" truth.csv got.csv || die "$s: from the stream"
	rm -rf nv
	gpumem-synth -s "$s" --nvsmi nv
	gpumem-tasks -q nv/query-gpu.csv nv/compute-apps.csv > got2.csv || die "$s: exit $?"
	sh "$TESTS/tools/taskcmp.sh" truth.csv got2.csv || die "$s: from the nvidia-smi logs"
done
# The random scenario, 8 GPUs at 100 ms, for an hour: hundreds of tasks.
gpumem-synth -s random --interval 100ms --duration 1h --truth truth.csv | gpumem-tasks -q > got.csv
n=$(nrec truth.csv)
[ "$n" -gt 100 ] || die "random: only $n tasks"
sh "$TESTS/tools/taskcmp.sh" truth.csv got.csv 0.1 || die "random"
