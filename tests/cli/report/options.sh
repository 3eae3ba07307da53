# Report options and failures: the title, --utc, an input that is not
# records, a write error.
. "$TESTS/lib.sh"
gpumem-synth -s leak > leak.csv
gpumem-report -q --title 'CI run <42>' leak.csv > r.html || die "exit $?"
grep -q '<title>CI run &lt;42&gt;</title>' r.html || die "the title is not escaped"
grep -q '<h1>CI run &lt;42&gt;</h1>' r.html || die "no heading"
gpumem-tasks -q leak.csv > tasks.csv
# A task table alone (the reduce of a fleet, docs/scale.md): its tasks,
# no curves.
gpumem-report -q -o t.html tasks.csv
expect_eq "task table: leaked rows" "$(grep -c '<tr class="leaked">' t.html)" 1
expect_eq "task table: charts of usage" "$(grep -c 'class="chart usage"' t.html || :)" 0
rc=0; gpumem-report -q -o /dev/full leak.csv 2> err.txt || rc=$?
expect_eq "/dev/full: exit" $rc 2
grep -q 'write error\|/dev/full' err.txt || die "/dev/full: $(cat err.txt)"
# An empty input makes a report that says so.
head -n 1 leak.csv > empty.csv
gpumem-report -q empty.csv > e.html || die "empty: exit $?"
grep -q 'no whole-device samples' e.html || die "empty: says nothing"
exit 0
