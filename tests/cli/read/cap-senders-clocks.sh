# Senders whose clocks differ by seconds, as a collector captures them
# (issue 31): three gpumem send on one host (three ports: several
# senders, or hosts behind one address), two over TCP at once (their
# connections interleaved) and one over UDP, each fed live, record by
# record, stamped with its own clock: A true, B 19 s ahead, C 7 s behind;
# A and B both say GPU 0.  tcpdump records the loopback.  Records of one
# sender come after later ones of another all the time: that is no clock
# step (a step is judged per sender and GPU), and every record is read as
# its sender stamped it, in time order: the records each sender was given,
# sorted, exactly.  The same capture rotated by editcap -c and read in one
# call gives the same, and tshark with contrib's dissector reads the same
# records.
. "$TESTS/lib.sh"
header="timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
n=40
sink_start tcp.txt -q
tport=$sink_port
sink_start udp.txt -u -q
uport=$sink_port
lo_capture cap.pcap "port $tport or port $uport"
# sender NAME GPU OFFSET_NS: n records of GPU, stamped with the clock
# OFFSET_NS off, about every 10 ms.
sender() {
	echo "$header"
	i=0
	while [ $i -lt $n ]; do
		ts=$(($(date +%s%N) + $3))
		echo "$ts,127.0.0.1,$2,0,$(($i * 3 + 1)),$((5000 - $i)),8192,"
		i=$(($i + 1))
		sleep 0.01
	done
}
mkfifo a.fifo b.fifo c.fifo
gpumem-send -q tcp://127.0.0.1:$tport a.fifo 2> a.err &
pa=$!
bg_add $pa
gpumem-send -q tcp://127.0.0.1:$tport b.fifo 2> b.err &
pb=$!
bg_add $pb
gpumem-send -q udp://127.0.0.1:$uport c.fifo 2> c.err &
pc=$!
bg_add $pc
sender A 0 0 | tee a.csv > a.fifo &
sender B 0 19000000000 | tee b.csv > b.fifo &
sender C 1 -7000000000 | tee c.csv > c.fifo &
wait $pa || die "send A: exit $?: $(cat a.err)"
wait $pb || die "send B: exit $?: $(cat b.err)"
wait $pc || die "send C: exit $?: $(cat c.err)"
cat a.csv b.csv c.csv | grep -v '^timestamp' | sort > want.txt
expect_eq "records sent" "$(wc -l < want.txt | tr -d ' ')" $((3 * n))
holds() {
	[ "$(gpumem-read -q cap.pcap 2> /dev/null | nrec /dev/stdin)" -ge $((3 * n)) ]
}
wait_for 30 holds || die "the capture does not hold the records sent"
lo_capture_stop

# Every record as stamped, in time order, nothing said but the summary.
gpumem-read cap.pcap > got.csv 2> err.txt || die "read: exit $?"
tail -n +2 got.csv | sort | cmp -s - want.txt ||
	die "records differ: $(tail -n +2 got.csv | sort | diff want.txt - | head -5)"
tail -n +2 got.csv | cut -d, -f1 | sort -n -c || die "not in time order"
! grep -q 'clock' err.txt || die "$(cat err.txt)"
expect_eq "messages" "$(wc -l < err.txt | tr -d ' ')" 1
grep -q ": $((3 * n)) records (pcap capture, " err.txt || die "$(cat err.txt)"

# Rotated: files of 25 packets, read in one call.
command -v editcap > /dev/null || skip "editcap is not installed"
editcap -c 25 cap.pcap part.pcap
[ "$(ls part_*.pcap | wc -l)" -gt 2 ] || die "editcap made $(ls part_*.pcap)"
gpumem-read part_*.pcap > rot.csv 2> rot.err || die "rotated: exit $?"
tail -n +2 rot.csv | sort | cmp -s - want.txt ||
	die "rotated: records differ: $(tail -n +2 rot.csv | sort | diff want.txt - | head -5)"
! grep -q 'clock' rot.err || die "rotated: $(cat rot.err)"

# tshark and the dissector: the same records (a second reading).
command -v tshark > /dev/null || skip "tshark is not installed"
export HOME=$PWD	# tshark keeps its profile there
tshark -v 2> /dev/null | grep -q 'with Lua' || skip "tshark has no Lua"
sh "$TESTS/tools/tsharkrecs.sh" cap.pcap | sort > tshark.txt ||
	die "tshark failed"
cmp -s tshark.txt want.txt ||
	die "tshark: $(diff want.txt tshark.txt | head -5)"
