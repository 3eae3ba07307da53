# The reduce of a fleet is exact: four nodes' logs (gpumem synth, one
# --host each, tasks known), analysed (a) all at once and (b) per node
# into a task table and a usage curve, then merged: the same task table
# after sorting (and the synth truth), the same check verdict (exit,
# stderr, JSON, JUnit, Markdown), the same report (all but the charts and
# the file names) and the same text Gantt.
. "$TESTS/lib.sh"
i=0
for s in demo slow-release multi-gpu leak; do
	i=$((i + 1))
	gpumem-synth -s $s --host node$i --seed $i -t truth$i.csv -o node$i.rec
done
# (a) every raw log at once
gpumem-tasks -q node*.rec > all.csv
rc=0
gpumem-check node*.rec --json a.json --junit a.xml --markdown a.md \
    2> a.err || rc=$?
expect_eq "check of the logs: exit" $rc 1
gpumem-report -q -o a.html node*.rec
gpumem-gantt --text node*.rec > a.gantt
# (b) per node: what gpumem read | gpumem tasks writes, and its curve
for n in 1 2 3 4; do
	gpumem-read -q node$n.rec | gpumem-tasks -q -o node$n.csv
	gpumem-usage -q -o node$n.usage.csv node$n.rec
	gpumem-usage -q --every 10s -o node$n.every.csv node$n.rec
done
gpumem-tasks node?.csv > merged.csv 2> merged.err
rc=0
gpumem-check node?.csv node?.usage.csv --json b.json --junit b.xml \
    --markdown b.md 2> b.err || rc=$?
expect_eq "check of the tables: exit" $rc 1
gpumem-report -q -o b.html node?.csv node?.usage.csv
gpumem-gantt --text node?.csv node?.usage.csv > b.gantt
sorted() {
	head -n 1 "$1"
	tail -n +2 "$1" | sort
}
sorted all.csv > a.sorted
sorted merged.csv > b.sorted
cmp a.sorted b.sorted || die "merged task table differs: $(diff a.sorted b.sorted | head -5)"
# The truth, from outside: the tasks synth made, by key columns.
cat truth?.csv | grep -v '^host,' | cut -d, -f1-3,5,6,11,12 | sort > truth.keys
tail -n +2 merged.csv | cut -d, -f1-3,5,6,11,12 | sort > merged.keys
cmp truth.keys merged.keys || die "merged table is not the truth: $(diff truth.keys merged.keys | head -5)"
for f in err json xml md gantt; do
	cmp a.$f b.$f || die "$f differs: $(diff a.$f b.$f | head -5)"
done
# The report without its charts and its list of inputs.
page() {
	awk '/<svg/ { s = 1 } !s { print } /<\/svg>/ { s = 0 }' "$1" |
	    sed 's/ &middot; from .*//'
}
page a.html > a.page
page b.html > b.page
cmp a.page b.page || die "report differs: $(diff a.page b.page | head -5)"
# Curves of --every buckets: a bucket counts as the samples it stands for.
gpumem-report -q -o c.html node?.csv node?.every.csv
samples() {
	grep -o '[0-9]* GPUs &middot; [0-9]* samples every [0-9]* s' "$1"
}
expect_eq "report of buckets: GPUs, samples" "$(samples c.html)" "$(samples a.html)"
# The numbers themselves, for people reading this test.
cat merged.err
wc -l < merged.keys
cat b.err
grep -c '<tr class="leaked">' b.html
samples c.html
exit 0
