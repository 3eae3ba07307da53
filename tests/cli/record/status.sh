# The command's exit status is passed through; a command that cannot run
# is 127; a second recording into the same place needs --force.
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
rc=0; gpumem-record --after 0 -o a -- sh -c 'exit 3' || rc=$?
expect_eq "exit status of sh -c 'exit 3'" $rc 3
grep -q '^exit: status 3$' a/meta || die "meta: $(cat a/meta)"
rc=0; gpumem-record --after 0 -o b -- no-such-command-here 2> err.txt || rc=$?
expect_eq "exit status of a missing command" $rc 127
grep -q "^gpumem-record: cannot run no-such-command-here: No such file or directory$" err.txt || die "$(cat err.txt)"
rc=0; gpumem-record --after 0 -o a -- true 2> err.txt || rc=$?
expect_eq "second recording" $rc 2
expect_eq "message" "$(cat err.txt)" "gpumem-record: a/query-gpu.csv: exists: an earlier recording? (--force replaces it)"
rc=0; gpumem-record --after 0 -f -o a -- true || rc=$?
expect_eq "with --force" $rc 0
grep -q '^command: true$' a/meta || die "meta not replaced: $(cat a/meta)"
