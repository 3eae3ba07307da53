# A collector (issue 19 item 10): three gpumem send, each stamping its
# records with the clock and sending them 0-20 ms later, as hosts on a
# network do, over UDP to loopback, captured by tcpdump into a FIFO read
# live without --lag: every record is kept, in time order, the capture's
# default lag covers the jitter (no record comes too late, nothing said
# of it).
# alone: the default lag must cover the senders' 0-20 ms jitter, not a busy machine's
. "$TESTS/lib.sh"
header="timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
n=80
sink_start sink.txt -u -q
port=$sink_port
mkfifo s0.fifo s1.fifo s2.fifo
lo_capture_live cap.pcap "udp port $port"
gpumem-read --live -o out.csv live.fifo 2> err.txt &
pid=$!
bg_add $pid
# Sender k: n records of GPU k, each stamped, then held 0-20 ms (a
# different pattern per sender) before it goes, every 10 ms or so.
sender() {
	echo "$header"
	i=0
	while [ $i -lt $n ]; do
		ts=$(date +%s%N)
		sleep "0.0$(printf %02d $((($i * 7 + $1 * 13) % 21)))"
		echo "$ts,127.0.0.1,$1,0,$i,1000,2000,"
		i=$(($i + 1))
		sleep 0.01
	done
}
for k in 0 1 2; do
	gpumem-send -q udp://127.0.0.1:$port s$k.fifo 2> send$k.err &
	eval "send$k=\$!"
	bg_add $!
	sender $k | tee want$k.csv > s$k.fifo &
done
for k in 0 1 2; do
	eval "wait \$send$k" || die "send $k: exit $?: $(cat send$k.err)"
done
{
	echo "$header"
	for k in 0 1 2; do
		tail -n +2 want$k.csv
	done | sort -t, -k1,1n -k3,3n
} > want.csv
expect_eq "records sent" "$(nrec want.csv)" $((3 * $n))
holds() {
	[ "$(gpumem-read -q cap.pcap 2> /dev/null | nrec /dev/stdin)" -eq $((3 * $n)) ]
}
wait_for 30 holds || die "the capture does not hold the records sent"
kill -TERM $pid
rc=0; wait $pid || rc=$?
kill -INT $cap_pid
wait $cap_pid || :
expect_eq "exit status" $rc 0
cmp -s out.csv want.csv || die "$(diff want.csv out.csv | head -5)"
grep -q "^gpumem-read: live.fifo: $((3 * $n)) records (pcap capture" err.txt ||
	die "$(cat err.txt)"
expect_eq "messages" "$(wc -l < err.txt)" 1
