# Both nvidia-smi loops gpumem record runs, device and processes, each
# into its FIFO and gpumem send reading both live: frames of the process
# that holds the stand-in GPU go out while the loops run; when they stop,
# send ends (exit 0, said to have been live), and the capture holds every
# record it sent, process records and the memory_used = 0 records of
# processes no longer listed included.  A process runs all along (the
# process loop prints nothing while none does, and would hold the device
# loop back: see gpumem-send(1)).
# alone: the two loops and send run live at 100 ms and must keep up
. "$TESTS/lib.sh"
sink_start sink.txt -u
lo_capture cap.pcap "udp port $sink_port"
sleep 60 &
bg_add $!
mkfifo q.fifo a.fifo
PATH=$TESTS/tools/fakebin:$PATH nvidia-smi \
    --query-gpu=timestamp,index,uuid,memory.total,memory.used,memory.free \
    --format=csv -lms 100 > q.fifo &
nv1=$!
PATH=$TESTS/tools/fakebin:$PATH nvidia-smi \
    --query-compute-apps=timestamp,gpu_uuid,pid,process_name,used_gpu_memory \
    --format=csv -lms 100 > a.fifo &
nv2=$!
bg_add "$nv1 $nv2"
gpumem-send -v udp://127.0.0.1:$sink_port q.fifo a.fifo 2> send.err &
send_pid=$!
bg_add $send_pid
# Ten frames of GPU 0 holding process records (count above 1).
ten() {
	[ "$(grep -c '^frame 0 [0-9]* [2-9] ' sink.txt)" -ge 10 ]
}
wait_for 60 ten || die "no process frames while the loops run: $(cat send.err)"
kill -TERM $nv1 $nv2
wait $send_pid
expect_eq "exit status" $? 0
n=$(sed -n 's/.*: sent \([0-9]*\) records in [0-9]* frames .*, live$/\1/p' send.err)
[ -n "$n" ] || die "$(cat send.err)"
grep -q 'added [0-9]* memory_used = 0 records' send.err || die "$(cat send.err)"
grep -q ': records GMEM cannot carry exactly, sent as well as it can: [0-9]* process names dropped' send.err ||
	die "$(cat send.err)"
holds() {
	[ "$(gpumem-read -q cap.pcap 2> /dev/null | nrec /dev/stdin)" -eq $n ]
}
wait_for 30 holds || die "the capture does not hold the $n records sent"
lo_capture_stop
gpumem-read -q cap.pcap > got.csv
[ "$(awk -F, '$4 != 0' got.csv | wc -l)" -gt 10 ] || die "too few process records"
