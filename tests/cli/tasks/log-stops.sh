# The process loop dies at 20 s (killed) while the device loop goes on
# to 45 s (synth -s log-stops).  Truth: train.py exits at 20.04 s, its
# memory back at once; serve.py exits at 31 s, back at once; webui.py
# still runs at the end.  The log cannot tell a loop that died from polls
# that found nothing: an end placed after polls that printed nothing
# has bounds from 0 (before, serve.py got [10.85, 11.08] s for a true 0,
# by the loops' phase), and memory held to the end by a process listed
# at the log's last poll, 25 s before the device log's end, is said and
# noted log-stopped: a leak, or a process still running.
. "$TESTS/lib.sh"
for off in 0 20 60; do
	rm -rf rec
	gpumem-synth -s log-stops --proc-offset ${off}ms --nvsmi rec
	gpumem-tasks rec/query-gpu.csv rec/compute-apps.csv 2> err |
		cut -d, -f3,12,13,14,15
	sed -n 1p err
	rc=0
	gpumem-check -q rec 2> err || rc=$?
	expect_eq "check: exit" $rc 1
	grep -c 'or still running: the process log stopped' err
done
