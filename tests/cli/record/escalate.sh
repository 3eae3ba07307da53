# A command that ignores SIGTERM cannot keep gpumem record going: after a
# signal passed on it has --kill-after to end, then it is killed (exit
# 128 + 9) and that is said; a second signal kills it at once.  The logs
# end when the command ended.
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
export FAKE_GPU_COMM=sleep FAKE_GPU_MIB=1024 FAKE_GPU_RELEASE_MS=0
# The command: a shell that ignores SIGTERM, waiting for a long sleep.
cat > stubborn.sh <<'SH'
trap '' TERM
echo $$ > stubborn.pid
sleep 60 &
echo $! > child.pid
wait
SH
# The sleep ignores SIGTERM as its shell did: SIGKILL.
trap 'kill -KILL $(cat child.pid 2> /dev/null) 2> /dev/null || :' EXIT
# started FILE: the command has written its pid (the signal must find it).
started() {
	[ -s stubborn.pid ]
}
for how in grace second; do
	rm -f stubborn.pid child.pid
	if [ $how = grace ]; then
		gpumem-record --interval 100ms --before 0 --after 0 \
		    --kill-after 1s -o run-$how -- sh stubborn.sh 2> err-$how.txt &
	else
		gpumem-record --interval 100ms --before 0 --after 0 \
		    --kill-after 1h -o run-$how -- sh stubborn.sh 2> err-$how.txt &
	fi
	rec=$!
	wait_for 60 started || die "$how: the command did not start"
	kill -TERM $rec
	if [ $how = second ]; then
		sleep 1
		kill -TERM $rec
	fi
	rc=0; wait $rec || rc=$?
	echo "$how: exit $rc"
	grep -o 'killed (SIGKILL)' err-$how.txt
	grep -q '^exit: signal 9$' run-$how/meta || die "$how: meta: $(cat run-$how/meta)"
	grep -q 'stopped by a signal: sh ended ' err-$how.txt ||
	    die "$how: $(cat err-$how.txt)"
	kill -KILL $(cat child.pid) 2> /dev/null || :
done
