# A signal passed on, and the SIGKILL of --kill-after, reach everything
# the command started: its children's children too (a shell's background
# job), even one whose parent ended first.  Each case's grandchild writes
# its pid to a file; none is alive when record has ended.
# alone: it asserts record ends within seconds
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
# signalled NAME EXIT PIDFILE RECORD-OPTION... -- COMMAND...: record
# COMMAND, SIGTERM it once PIDFILE is written: record exits EXIT and the
# grandchild of PIDFILE has ended (within 10 s); stderr in NAME.err.
signalled() {
	_name=$1 _want=$2 _pf=$3
	shift 3
	gpumem-record --before 0 --after 0 -o "run-$_pf" "$@" 2> "$_name.err" &
	_pid=$!
	bg_add $_pid
	wait_for 10 test -s "$_pf" || die "$_name: the command did not start"
	bg_add "$(cat "$_pf")"
	kill -TERM $_pid
	rc=0; wait $_pid || rc=$?
	expect_eq "$_name: exit" $rc "$_want"
	wait_for 10 sh -c '! kill -0 $(cat "$1") 2> /dev/null' sh "$_pf" ||
	    die "$_name: left running: $(ps -o pid=,args= -p "$(cat "$_pf")" || :)"
}
# SIGTERM: the shell and its background sleep.
signalled sigterm 143 gc1.pid -- sh -c 'sleep 60 & echo $! > gc1.pid; wait'
# A command and its child that ignore SIGTERM: --kill-after kills both.
signalled kill-after 137 gc2.pid --kill-after 1s -- \
    sh -c 'trap "" TERM; sleep 60 & echo $! > gc2.pid; wait'
grep -q 'did not end after the signal passed on: killed (SIGKILL)' kill-after.err ||
	die "--kill-after: $(cat kill-after.err)"
# A grandchild whose parent has ended (it is record's now): SIGTERM.
signalled orphan 143 gc3.pid -- \
    sh -c '(sleep 60 & echo $! > gc3.pid); sleep 60'
