# contrib/slurm on a real one-node Slurm cluster (munge, slurmctld and
# slurmd of Debian's slurm-wlm, started here on 127.0.0.1, stopped by pid
# whatever happens): gpumem-slurm submits the job array that maps one
# node's logs per array task (a directory, a glob, files; curves of
# single samples and of 10 s buckets) and the reduce that depends on it;
# the reduced task table, check JSON and JUnit are those of all the logs
# read at once, the merged tasks are synth's truth, and the report has
# the same numbers (its charts and its header's end and intervals come
# from the buckets).  A map task that fails cancels the reduce.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] ||
	skip "the cluster and the scripts do not depend on the build variant (fleet/reduce.sh runs the reduce under the sanitizers)"
. "$TESTS/tools/slurmcluster.sh"
slurm=$TESTS/../contrib/slurm
GPUMEM=$(command -v gpumem)
export GPUMEM
# Four nodes with known truth (gpumem synth); node1's log in a directory,
# node2's named by a glob.
mkdir logs logs/node1 logs/node2
i=0
for s in demo slow-release multi-gpu leak; do
	i=$((i + 1))
	gpumem-synth -s $s --host node$i --seed $i -t truth$i.csv -o node$i.rec
done
mv node1.rec logs/node1/
mv node2.rec logs/node2/
cat > nodes.list <<EOL
$PWD/logs/node1
$PWD/logs/node2/*.rec
$PWD/node3.rec
$PWD/node4.rec
EOL
all="logs/node1/node1.rec logs/node2/node2.rec node3.rec node4.rec"
# All at once, here.
# shellcheck disable=SC2086
gpumem-tasks -q $all > all.csv
rc=0
# shellcheck disable=SC2086
gpumem-check -q $all --json all.json --junit all.xml 2> /dev/null || rc=$?
expect_eq "check of the logs: exit" $rc 1
# shellcheck disable=SC2086
gpumem-report -q -o all.html $all

slurm_start
rc=0
sh "$slurm/gpumem-slurm" -w -e 10s -o fleet nodes.list > ids 2> submit.err || rc=$?
expect_eq "gpumem-slurm -w: exit (the reduce's: check's)" $rc 1
read -r array reduce < ids
case $array:$reduce in
*[!0-9:]* | :* | *:) die "job ids: '$(cat ids)'" ;;
esac
# The array ran one task a line, and the reduce after it.
for n in 1 2 3 4; do
	[ -s fleet/map/$n.tasks.csv ] || die "array task $n: no task table"
	[ -s fleet/map/$n.usage.csv ] || die "array task $n: no curve"
	[ -s fleet/map/$n.every.csv ] || die "array task $n: no curve of buckets"
done
sorted() {
	head -n 1 "$1"
	tail -n +2 "$1" | sort
}
sorted all.csv > all.sorted
sorted fleet/tasks.csv > fleet.sorted
cmp all.sorted fleet.sorted || die "task table differs: $(diff all.sorted fleet.sorted | head -5)"
# Line i is node i: array task i's table has node i's tasks only.
for n in 1 2 3 4; do
	expect_eq "array task $n: hosts" \
	    "$(tail -n +2 fleet/map/$n.tasks.csv | cut -d, -f1 | sort -u)" node$n
done
# The truth, from outside: the tasks synth made, by key columns.
cat truth?.csv | grep -v '^host,' | cut -d, -f1-3,5,6,11,12 | sort > truth.keys
tail -n +2 fleet/tasks.csv | cut -d, -f1-3,5,6,11,12 | sort > fleet.keys
cmp truth.keys fleet.keys || die "fleet table is not the truth: $(diff truth.keys fleet.keys | head -5)"
cmp all.json fleet/check.json || die "check.json differs: $(diff all.json fleet/check.json | head -5)"
cmp all.xml fleet/check.xml || die "check.xml differs: $(diff all.xml fleet/check.xml | head -5)"
# The report without its charts, its header line and its chart data
# (the plot area and time range a chart's figure gives its zoom are the
# chart's: the buckets' curves end where their last bucket does).
page() {
	awk '/<svg/ { s = 1 } !s { print } /<\/svg>/ { s = 0 }' "$1" |
	    grep -v -e '^<p class="meta">' -e '^{"t0":' |
	    sed 's/ data-box="[^"]*" data-x="[^"]*" data-xfmt="[^"]*"//'
}
page all.html > all.page
page fleet/report.html > fleet.page
cmp all.page fleet.page || die "report differs: $(diff all.page fleet.page | head -5)"
samples() {
	grep -o '[0-9]* GPUs &middot; [0-9]* samples every [0-9]* s' "$1"
}
# The report took the map's buckets (the inputs its header names).
expect_eq "report's curves" "$(grep '^<p class="meta">' fleet/report.html |
    grep -o '[0-9]\.[a-z]*\.csv' | tr '\n' ' ')" \
    "1.tasks.csv 2.tasks.csv 3.tasks.csv 4.tasks.csv 1.every.csv 2.every.csv 3.every.csv 4.every.csv "
expect_eq "report of buckets: GPUs, samples" "$(samples fleet/report.html)" \
    "$(samples all.html)"
# A node whose logs do not read fails its array task: the reduce is
# cancelled, and -w says so (trouble).
printf '%s\n' "$PWD/node3.rec" "$PWD/nowhere.rec" > broken.list
rc=0
sh "$slurm/gpumem-slurm" -w -o broken broken.list > ids 2> broken.err || rc=$?
expect_eq "a map task failed: exit" $rc 2
read -r array reduce < ids
grep -q "^gpumem-slurm: reduce job $reduce: CANCELLED " broken.err ||
    die "no word of the cancelled reduce: $(cat broken.err)"
[ ! -e broken/tasks.csv ] || die "the reduce ran"
grep -q 'nowhere.rec' broken/map/2.out || die "array task 2 did not say why"
# The reduce's log (check's verdict), the tasks, the leaks reported.
cat fleet/reduce.out
wc -l < fleet.keys
grep -c '<tr class="leaked">' fleet/report.html
exit 0
