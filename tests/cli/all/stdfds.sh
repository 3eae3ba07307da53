# fds 0, 1 and 2 are open before anything else (cmd_stdfds): with stderr
# closed (cron, a daemon, "2>&-") the messages go nowhere, never into the
# -o file that would otherwise get fd 2; likewise stdout and stdin closed.
. "$TESTS/lib.sh"
# A good input and a bad one: exit 2, with messages to say, and an
# output that must be exactly what the good input gives.
printf 'garbage\n' > bad.txt
gpumem-synth -s leak -o leak.csv
gpumem-tasks -q leak.csv > want.csv

rc=0; gpumem-tasks -o out.csv leak.csv bad.txt 2>&- || rc=$?
expect_eq "tasks 2>&-: exit" $rc 2
cmp out.csv want.csv || die "tasks 2>&-: the output: $(cat out.csv)"

rc=0; gpumem tasks -o out2.csv leak.csv bad.txt 2>&- || rc=$?
expect_eq "gpumem tasks 2>&-: exit" $rc 2
cmp out2.csv want.csv || die "gpumem tasks 2>&-: the output: $(cat out2.csv)"

rc=0; gpumem-read -o out.rec leak.csv bad.txt 2>&- || rc=$?
expect_eq "read 2>&-: exit" $rc 2
cmp out.rec leak.csv || die "read 2>&-: the output: $(cat out.rec)"

# check: its JSON report the same with stderr closed as with it open.
rc=0; gpumem-check --json open.json bad.txt 2>/dev/null || rc=$?
expect_eq "check: exit" $rc 2
rc=0; gpumem-check --json closed.json bad.txt 2>&- || rc=$?
expect_eq "check 2>&-: exit" $rc 2
cmp open.json closed.json || die "check 2>&-: the report differs: $(diff open.json closed.json)"
! grep -q 'gpumem-check:' closed.json || die "check 2>&-: messages in the report"

# stdout closed: the output file must not be fd 1 (where stdout's
# buffer would go).
rc=0; gpumem-tasks -q -o out3.csv leak.csv >&- || rc=$?
expect_eq "tasks >&-: exit" $rc 0
cmp out3.csv want.csv || die "tasks >&-: the output differs"

# stdin closed: "-" reads nothing, and the input opened is not fd 0.
rc=0; gpumem-read -q -o out4.rec leak.csv <&- || rc=$?
expect_eq "read <&-: exit" $rc 0
cmp out4.rec leak.csv || die "read <&-: the output differs"
