# Report options and failures: the title, --utc, an input that is not
# records, a write error.
. "$TESTS/lib.sh"
gpumem-synth -s leak > leak.csv
gpumem-report -q --title 'CI run <42>' leak.csv > r.html || die "exit $?"
grep -q '<title>CI run &lt;42&gt;</title>' r.html || die "the title is not escaped"
grep -q '<h1>CI run &lt;42&gt;</h1>' r.html || die "no heading"
gpumem-tasks -q leak.csv > tasks.csv
rc=0; gpumem-report tasks.csv > r.html 2> err.txt || rc=$?
expect_eq "task table: exit" $rc 2
expect_eq "task table: message" "$(cat err.txt)" "gpumem-report: tasks.csv: a task table (gpumem tasks): expected a record stream or a log (the report draws usage curves)"
rc=0; gpumem-report -q -o /dev/full leak.csv 2> err.txt || rc=$?
expect_eq "/dev/full: exit" $rc 2
grep -q 'write error\|/dev/full' err.txt || die "/dev/full: $(cat err.txt)"
# An empty input makes a report that says so.
head -n 1 leak.csv > empty.csv
gpumem-report -q empty.csv > e.html || die "empty: exit $?"
grep -q 'no whole-device samples' e.html || die "empty: says nothing"
exit 0
