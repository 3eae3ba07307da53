# Windows (WDDM): nvidia-smi lists the processes with their memory N/A.
# Logs made from synth recordings with the numbers sedded away: the tasks
# are estimated from the processes' lives and the device's usage (note
# "estimated"), and match each recording's truth within the interval;
# the tool says why.  From standard input there is no second reading:
# it says so and gives no task.
. "$TESTS/lib.sh"
for s in demo slow-release concurrent leak partial-leak two-waiting multi-gpu; do
	rm -rf nv
	gpumem-synth -s "$s" --nvsmi nv --truth truth.csv
	sed 's/, [0-9]* MiB$/, [N\/A]/' nv/compute-apps.csv > apps.csv
	grep -q 'MiB$' apps.csv && die "$s: numbers left"
	gpumem-tasks -q nv/query-gpu.csv apps.csv > got.csv
	sh "$TESTS/tools/taskcmp.sh" truth.csv got.csv || die "$s"
	n=$(awk -F, 'NR > 1 && $NF !~ /estimated/' got.csv | wc -l)
	expect_eq "$s: tasks not noted estimated" "$n" 0
done
gpumem-tasks nv/query-gpu.csv apps.csv | cut -d, -f2-
cat nv/query-gpu.csv apps.csv | gpumem-tasks
# Cut while a process is still listed: it runs, ending at its last listing.
grep -v ' 00:00:[3-5][0-9]\| 00:01' nv/query-gpu.csv > q.csv
grep -v ' 00:00:[3-5][0-9]\| 00:01' apps.csv > a.csv
gpumem-tasks -q q.csv a.csv | grep running | cut -d, -f2-
# gpumem read says it in the summary line of the log.
gpumem-read nv/query-gpu.csv apps.csv > /dev/null
