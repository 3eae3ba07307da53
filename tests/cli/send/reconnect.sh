# TCP, live: the collector goes away mid-stream and comes back on the same
# port.  gpumem send notices before it writes (nothing lost into a dead
# connection), drops the frames made meanwhile, reconnects with backoff,
# says what it dropped, goes on numbering (the collector sees the gap)
# and exits 0.  The capture holds everything else, in order, and its
# reader counts the dropped frames as lost.
. "$TESTS/lib.sh"
sink_start sinkA.txt
port=$sink_port
sinkA=$sink_pid
lo_capture cap.pcap "tcp port $port"
mkfifo in.fifo
gpumem-send tcp://127.0.0.1:$port < in.fifo 2> send.err &
send_pid=$!
bg_add $send_pid
exec 3> in.fifo
t0=1767225600
header="timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
echo "$header" > want.csv
echo "$header" >&3
poll() {
	for g in 0 1; do
		echo "$(($t0 + $1))000000000,127.0.0.1,$g,0,$(($1 * 10 + $g)),1000,2000,"
	done | tee -a want.csv >&3
}
poll 1
poll 2
poll 3
wait_for 30 grep -q '^frame 1 1 1 0 ' sinkA.txt || die "poll 2 did not reach the first collector"
kill -TERM $sinkA
wait $sinkA
# Polls 3 and 4 go out while nobody listens.
poll 4
poll 5
wait_for 30 grep -q 'connection lost' send.err || die "no word of the lost connection: $(cat send.err)"
sink_start sinkB.txt -p $port
# Polls go on until send has reconnected (its backoff, on a busy machine,
# may outlast any count of polls: the bound is generous and in seconds).
k=6
end=$(($(date +%s) + 120))
while ! grep -q '^frame ' sinkB.txt; do
	[ "$(date +%s)" -le $end ] || die "no reconnection: $(cat send.err)"
	poll $k
	k=$(($k + 1))
	sleep 0.05
done
poll $k
exec 3>&-
wait $send_pid
expect_eq "exit status" $? 0
grep -q "^gpumem-send: tcp://127.0.0.1:$port: connection lost (closed by the collector); reconnecting\$" send.err ||
	die "$(cat send.err)"
line=$(grep "^gpumem-send: dropped [0-9]* frames ([0-9]* records) while tcp://127.0.0.1:$port was down for [0-9.]* s\$" send.err) ||
	die "$(cat send.err)"
dropped=$(echo "$line" | sed 's/.*dropped \([0-9]*\) frames (\([0-9]*\) records).*/\1 \2/')
set -- $dropped
[ $1 -ge 2 ] || die "dropped $1 frames"
expect_eq "records dropped" $2 $1
# The second collector goes on from the sequence numbers after the gap.
expect_eq "first frame after the gap" "$(grep '^frame 0 ' sinkB.txt | head -n 1 | cut -d' ' -f3)" $((2 + $1 / 2))
wait_for 30 grep -q "^frame 0 $(($k - 1)) 1 1 " sinkB.txt ||
	die "the last frame is not flagged: $(tail -n 3 sinkB.txt)"
# The capture: everything but the dropped records, in order; the gap is
# counted as lost frames.
nwant=$(($(nrec want.csv) - $2))
holds() {
	[ "$(gpumem-read -q cap.pcap 2> /dev/null | nrec /dev/stdin)" -eq $nwant ]
}
wait_for 30 holds || die "the capture does not hold $nwant records"
lo_capture_stop
gpumem-read cap.pcap > got.csv 2> read.err || die "read: $(cat read.err)"
grep -q ", $1 frames lost in sequence gaps (127.0.0.1 gpu 0: $(($1 / 2)), 127.0.0.1 gpu 1: $(($1 / 2)))" read.err ||
	die "$(cat read.err)"
sort want.csv > a.txt
sort got.csv > b.txt
expect_eq "records missing" "$(comm -23 a.txt b.txt | wc -l)" $2
expect_eq "records made up" "$(comm -13 a.txt b.txt | wc -l)" 0
