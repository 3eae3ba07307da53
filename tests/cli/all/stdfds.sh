# fds 0, 1 and 2 are open before anything else (cmd_stdfds): with stderr
# closed (cron, a daemon, "2>&-") the messages go nowhere, never into the
# -o file that would otherwise get fd 2; likewise stdout and stdin closed.
. "$TESTS/lib.sh"
printf 'garbage\n' > bad.txt
tasks_head=host,gpu,process_id,name,start,end,peak_mib,held_mib,release,release_delay_s,leaked_mib,status,delay_min_s,delay_max_s,note
rec_head=timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name

rc=0; gpumem-tasks -o out.csv bad.txt 2>&- || rc=$?
expect_eq "tasks 2>&-: exit" $rc 2
expect_eq "tasks 2>&-: the output" "$(cat out.csv)" "$tasks_head"

rc=0; gpumem tasks -o out2.csv bad.txt 2>&- || rc=$?
expect_eq "gpumem tasks 2>&-: exit" $rc 2
expect_eq "gpumem tasks 2>&-: the output" "$(cat out2.csv)" "$tasks_head"

rc=0; gpumem-read -o out.rec bad.txt 2>&- || rc=$?
expect_eq "read 2>&-: exit" $rc 2
expect_eq "read 2>&-: the output" "$(cat out.rec)" "$rec_head"

# check: its JSON report the same with stderr closed as with it open.
rc=0; gpumem-check --json open.json bad.txt 2>/dev/null || rc=$?
expect_eq "check: exit" $rc 2
rc=0; gpumem-check --json closed.json bad.txt 2>&- || rc=$?
expect_eq "check 2>&-: exit" $rc 2
cmp open.json closed.json || die "check 2>&-: the report differs: $(diff open.json closed.json)"
! grep -q 'gpumem-check:' closed.json || die "check 2>&-: messages in the report"

# stdout closed: the output file must not be fd 1 (where stdout's
# buffer would go).
gpumem-synth -s leak -o leak.csv
rc=0; gpumem-tasks -q -o out3.csv leak.csv >&- || rc=$?
expect_eq "tasks >&-: exit" $rc 0
gpumem-tasks -q leak.csv > want.csv
cmp out3.csv want.csv || die "tasks >&-: the output differs"

# stdin closed: "-" reads nothing, and the input opened is not fd 0.
rc=0; gpumem-read -q -o out4.rec leak.csv <&- || rc=$?
expect_eq "read <&-: exit" $rc 0
cmp out4.rec leak.csv || die "read <&-: the output differs"
