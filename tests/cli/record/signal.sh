# SIGTERM stops the command and the samplers at once; what was written is
# kept, and the exit status says the command was ended by the signal.
# alone: it asserts the recorder stops within seconds of the signal
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
gpumem-record --interval 100ms --before 0 --after 20s -o run -- sleep 30 2> err.txt &
pid=$!
# Signalled once it has sampled a few times (not after a time: a busy
# machine may not have started it by then).
sampled() {
	[ "$(cat run/query-gpu.csv 2> /dev/null | wc -l)" -gt 3 ]
}
wait_for 60 sampled || die "no samples: $(cat err.txt)"
start=$(date +%s)
kill -TERM $pid
rc=0; wait $pid || rc=$?
expect_eq "exit status" $rc 143
[ $(($(date +%s) - start)) -lt 8 ] || die "did not stop promptly"
grep -q '^exit: signal 15$' run/meta || die "meta: $(cat run/meta)"
[ "$(wc -l < run/query-gpu.csv)" -gt 3 ] || die "query-gpu log too short"
gpumem-read -q run | gpumem-tasks -q > tasks.csv
expect_eq "the sleep task" "$(tail -n 1 tasks.csv | cut -d, -f4)" sleep
grep -q "stopped by a signal: sleep ended [0-9T:.-]*Z; the logs in run hold what was recorded until then" err.txt || die "$(cat err.txt)"
