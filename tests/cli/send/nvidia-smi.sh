# The stand-in nvidia-smi looping into gpumem send, live: frames go out
# while it runs; when it is stopped, the last poll goes out too, flagged,
# and the capture reads back as the log itself (read with the sender's
# address as its host).
. "$TESTS/lib.sh"
sink_start sink.txt -u
lo_capture cap.pcap "udp port $sink_port"
mkfifo smi.fifo
PATH=$TESTS/tools/fakebin:$PATH nvidia-smi \
    --query-gpu=timestamp,index,memory.total,memory.used,memory.free \
    --format=csv -lms 100 > smi.fifo &
nv_pid=$!
bg_add $nv_pid
tee smi.csv < smi.fifo | gpumem-send -v udp://127.0.0.1:$sink_port 2> send.err &
send_pid=$!
bg_add $send_pid
five() {
	[ "$(grep -c '^frame 0 ' sink.txt)" -ge 5 ]
}
wait_for 60 five || die "no frames while nvidia-smi runs: $(cat send.err)"
kill -TERM $nv_pid
wait $send_pid
expect_eq "exit status" $? 0
grep -q ', live$' send.err || die "not live: $(cat send.err)"
gpumem-read -q --host 127.0.0.1 smi.csv > want.csv || die "read smi.csv: exit $?"
n=$(nrec want.csv)
[ $n -ge 5 ] || die "only $n polls"
wait_for 30 sh -c 'gpumem-read -q cap.pcap 2> /dev/null | cmp -s - want.csv'
lo_capture_stop
gpumem-read -q cap.pcap > got.csv
cmp -s want.csv got.csv || die "$(diff want.csv got.csv | head -5)"
wait_for 30 grep -q "^frame 0 $(($n - 1)) 1 1 " sink.txt ||
	die "the last poll is not flagged: $(tail -n 2 sink.txt)"
