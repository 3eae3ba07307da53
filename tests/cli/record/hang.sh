# record never hangs on nvidia-smi nor leaves one behind.  A probe that
# never answers (a wedged driver: the stand-in's FAKE_HANG) is killed
# after --probe-timeout, said, exit 2, the command never run; SIGTERM
# meanwhile ends record and the probe at once.  SIGKILL of record while
# it records: both loggers end with it (PR_SET_PDEATHSIG).  The stand-in
# writes each run's pid to $FAKE_PIDS: none is alive at the end.
# alone: it asserts record ends within seconds
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
FAKE_PIDS=$PWD/pids
export FAKE_PIDS
# none_alive WHAT: no pid of $FAKE_PIDS alive (waits for them 10 s).
none_alive() {
	wait_for 10 sh -c 'for p in $(cat pids); do
		! kill -0 $p 2> /dev/null || exit 1; done' ||
	    die "$1: left running: $(for p in $(cat pids); do
		ps -o pid=,args= -p $p || :; done)"
}
start=$(date +%s)
rc=0; FAKE_HANG=1 gpumem-record --probe-timeout 1s -o run -- touch ran \
    2> err.txt || rc=$?
expect_eq "hung probe: exit" $rc 2
expect_eq "hung probe: message" "$(cat err.txt)" \
    "gpumem-record: nvidia-smi --query-gpu=index,memory.reserved did not answer in 1 s (a wedged driver?): killed; nothing recorded"
[ $(($(date +%s) - start)) -lt 6 ] || die "hung probe: not bounded"
! [ -e ran ] || die "hung probe: the command ran"
expect_eq "hung probe: runs" "$(wc -l < pids)" 1
none_alive "hung probe"
: > pids
FAKE_HANG=1 gpumem-record -o run -- touch ran 2> err.txt &
pid=$!
bg_add $pid
wait_for 10 test -s pids || die "no probe started"
start=$(date +%s)
kill -TERM $pid
rc=0; wait $pid || rc=$?
expect_eq "SIGTERM during the probe: exit" $rc 2
[ $(($(date +%s) - start)) -lt 4 ] || die "SIGTERM during the probe: not at once"
expect_eq "SIGTERM during the probe: message" "$(cat err.txt)" \
    "gpumem-record: stopped by a signal while nvidia-smi --query-gpu=index,memory.reserved ran"
none_alive "SIGTERM during the probe"
! [ -e ran ] || die "SIGTERM during the probe: the command ran"
# SIGKILL while recording: the loggers go too.  The command (sh, its pid
# in cmd.pid) is no logger: it is ended here.
: > pids
gpumem-record --before 0 -o run2 -- sh -c 'echo $$ > cmd.pid; exec sleep 60' \
    2> /dev/null &
pid=$!
bg_add $pid
wait_for 10 sh -c '[ "$(wc -l < pids)" -ge 3 ] && [ -s cmd.pid ]' ||
	die "the loggers did not start: $(cat pids)"
bg_add "$(cat cmd.pid)"
sleep 0.5
kill -KILL $pid
none_alive "SIGKILL of record"
kill "$(cat cmd.pid)"
exit 0
