# -o FILE appears whole or not at all, however the run ends: SIGQUIT is
# handled like SIGTERM, and where the kernel has O_TMPFILE the temporary
# file has no name until it is complete, so even SIGKILL leaves nothing.
# Past ulimit -f a write fails ("File too large", exit 2) and nothing is
# left; SIGXFSZ used to end the tool without a word.
. "$TESTS/lib.sh"
[ -d /proc/self/fd ] || skip "no /proc/self/fd"
gpumem-synth -s demo > demo.csv
# The output file is open: a file of this folder among the tool's fds.
out_open() {
	ls -l /proc/$1/fd 2>/dev/null | grep -q -e '(deleted)' -e '\.tmp'
}
gone() {
	! kill -0 $1 2>/dev/null
}
# A background job of sh starts with SIGQUIT ignored: env gives it back.
env --default-signal=QUIT true 2>/dev/null ||
	skip "env has no --default-signal (GNU coreutils 8.31)"
for sig in TERM QUIT KILL; do
	mkfifo in.$sig
	env --default-signal=QUIT gpumem-read -q -o out.csv in.$sig \
	    2> err.$sig &
	pid=$!
	bg_add $pid
	exec 3> in.$sig
	head -n 50 demo.csv >&3
	wait_for 30 out_open $pid || die "$sig: the output was never opened"
	kill -$sig $pid
	wait_for 30 gone $pid || die "SIG$sig did not end gpumem-read"
	rc=0; wait $pid || rc=$?
	exec 3>&-
	echo "SIG$sig: exit $rc"
	[ ! -e out.csv ] || die "$sig: out.csv exists"
	! ls -a | grep -q '\.tmp' || die "$sig: a temporary file was left: $(ls -a)"
	rm in.$sig
done
# ulimit -f: 1 MB of records into a file limited to a few KB.
gpumem-synth -s random --duration 10m > big.csv
for cmd in "gpumem-read -q big.csv" "gpumem-synth -s random --duration 10m"; do
	rc=0; (ulimit -f 8; $cmd -o out.csv) || rc=$?
	echo "$cmd -o: exit $rc"
	[ ! -e out.csv ] || die "$cmd: out.csv exists"
	! ls -a | grep -q '\.tmp' || die "$cmd: a temporary file was left: $(ls -a)"
	rc=0; (ulimit -f 8; $cmd > out.csv) || rc=$?
	echo "$cmd > file: exit $rc"
	rm out.csv
done
