# Standard input is looked at and given back: a task table or a record
# stream (plain or gzip) both work there.  Write errors are trouble; a
# reader that goes away ends us quietly.
. "$TESTS/lib.sh"
gpumem-synth -s leak > leak.csv
gpumem-gantt --text --width 80 leak.csv > a.txt || die "file: exit $?"
gpumem-gantt --text --width 80 < leak.csv > b.txt || die "stdin: exit $?"
gzip -c leak.csv | gpumem-gantt --text --width 80 > c.txt || die "gzip stdin: exit $?"
cmp -s a.txt b.txt || die "stdin differs"
cmp -s a.txt c.txt || die "gzip stdin differs"
rc=0; gpumem-usage leak.csv | gpumem-gantt --text 2> err.txt || rc=$?
expect_eq "usage curve: exit" $rc 2
expect_eq "usage curve: message" "$(cat err.txt)" "gpumem-gantt: <stdin>: a usage curve (gpumem usage): expected a task table, a record stream or a log"
gpumem-tasks -q leak.csv > tasks.csv
rc=0; gpumem-gantt --text tasks.csv leak.csv 2> err.txt || rc=$?
expect_eq "mixed: exit" $rc 2
expect_eq "mixed: message" "$(cat err.txt)" "gpumem-gantt: leak.csv: a record stream or log, but tasks.csv is a task table (gpumem tasks): give logs, or task tables and usage curves, not both"
rc=0; gpumem-gantt --text leak.csv > /dev/full 2> err.txt || rc=$?
expect_eq "/dev/full: exit" $rc 2
grep -q 'write error' err.txt || die "/dev/full: $(cat err.txt)"
gpumem-synth -s random --duration 1h | gpumem-gantt --text --max-rows 1000 2> err.txt | head -n 1 > /dev/null
! [ -s err.txt ] || die "| head: $(cat err.txt)"
exit 0
