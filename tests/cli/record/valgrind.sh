# record under valgrind (the stand-in nvidia-smi): no invalid read or
# write and no use of uninitialised memory in its watch of the command,
# whose scans (procs.csv, holders.csv) are timed from the start.  A
# valgrind that does not know pidfd_open says so ("--PID-- WARNING"):
# that is no error of ours.  The command waits for a scan to see it
# (holders.csv is written at each scan), a minute at most.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "valgrind runs on the normal build"
command -v valgrind > /dev/null 2>&1 || skip "no valgrind"
PATH=$TESTS/tools/fakebin:$PATH
mkdir dev
: > dev/nvidia0
rc=0; valgrind -q --error-exitcode=99 gpumem-record -q --before 0 --after 0 \
    --interval 100ms --devices "$PWD/dev/nvidia[0-9]*" -o run -- \
    sh -c 'exec 3< dev/nvidia0; i=0
	# Until a scan has seen it (valgrind is slow on a busy machine).
	while ! grep -q ",sh," run/holders.csv 2> /dev/null &&
	    [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done' 2> err.txt ||
    rc=$?
[ $rc -ne 99 ] || die "valgrind: $(cat err.txt)"
grep -q '^==[0-9]*==' err.txt && die "valgrind said something: $(cat err.txt)"
expect_eq "exit" $rc 0
# The scans ran: the command's shell holds the stand-in.
grep -q '^[0-9]*,0,[0-9]*,sh,' run/holders.csv || die "holders: $(cat run/holders.csv)"
