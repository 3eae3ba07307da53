# A live input (a FIFO, as from nvidia-smi -lms): each poll's frames go out
# as soon as the next poll is written, before the producer goes on, and
# not before (a poll is complete only when a later one comes).  SIGTERM
# while the input is still open ends the stream: the last poll goes out,
# each GPU's frame flagged as its last, exit 0.  The capture reads back as
# what was written.
. "$TESTS/lib.sh"
sink_start sink.txt -u
lo_capture cap.pcap "udp port $sink_port"
mkfifo in.fifo
gpumem-send -v udp://127.0.0.1:$sink_port < in.fifo 2> send.err &
send_pid=$!
bg_add $send_pid
exec 3> in.fifo
t0=1767225600
poll() {
	for g in 0 1; do
		echo "$(($t0 + $1))000000000,127.0.0.1,$g,0,$(($1 * 10 + $g)),1000,2000,"
	done >&3
}
sent() {
	grep -q "^frame 0 $(($1 - 1)) 1 $2 $(($t0 + $1))000000000\$" sink.txt &&
	    grep -q "^frame 1 $(($1 - 1)) 1 $2 $(($t0 + $1))000000000\$" sink.txt
}
echo "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name" >&3
poll 1
for k in 2 3 4 5 6; do
	! grep -q "^frame [01] $(($k - 2)) " sink.txt || die "poll $(($k - 1)) went out before poll $k came"
	poll $k
	wait_for 30 sent $(($k - 1)) 0 || die "poll $(($k - 1)) did not go out when poll $k came"
done
kill -TERM $send_pid
wait $send_pid
expect_eq "exit status after SIGTERM" $? 0
wait_for 30 sent 6 1 || die "the last poll did not go out, flagged"
exec 3>&-
grep -q 'sent 12 records in 12 frames' send.err || die "$(cat send.err)"
want() {
	echo "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for k in 1 2 3 4 5 6; do
		for g in 0 1; do
			echo "$(($t0 + $k))000000000,127.0.0.1,$g,0,$(($k * 10 + $g)),1000,2000,"
		done
	done
}
want > want.csv
wait_for 30 sh -c 'gpumem-read -q cap.pcap 2> /dev/null | cmp -s - want.csv'
lo_capture_stop
gpumem-read -q cap.pcap > got.csv
cmp -s want.csv got.csv || die "$(diff want.csv got.csv | head -5)"
