# gpumem send over UDP to loopback, captured by tcpdump: gpumem read of
# the capture gives the sent records back byte for byte, from IPv4 and
# IPv6, three runs one after another (sequence numbers start afresh after
# each run's last frames), and a timestamp too big for one datagram (4000
# records: two frames, the second flagged as the GPU's last).
. "$TESTS/lib.sh"
gpumem-synth -s demo --gmem --host 127.0.0.1 > a.csv
# The runs follow each other in time, as runs of one sender do (a sender's
# times that step back are a clock step: cli/read/clock-cat.sh).
gpumem-synth -s multi-gpu --gmem --host 127.0.0.1 --start 2026-01-01T00:10:00Z > b.csv
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (i = 0; i < 4000; i++)
		printf "1767227400000000000,127.0.0.1,3,%d,%d,1000,81920,\n", i + 1, i
}' > c.csv
gpumem-read -q a.csv b.csv c.csv > want.csv
gpumem-synth -s concurrent --gmem --host ::1 > want6.csv

sink_start sink4.txt -u
port4=$sink_port
sink_start sink6.txt -u -6
port6=$sink_port
lo_capture cap.pcap "udp port $port4 or udp port $port6"
for f in a.csv b.csv c.csv; do
	gpumem-send udp://127.0.0.1:$port4 $f || die "send $f: exit $?"
done
gpumem-send udp://[::1]:$port6 - < want6.csv || die "send to [::1]: exit $?"
# What the capture must hold, before tcpdump is stopped.
both() {
	gpumem-read -q --port $port4 cap.pcap 2> /dev/null | cmp -s - want.csv &&
	    gpumem-read -q --port $port6 cap.pcap 2> /dev/null | cmp -s - want6.csv
}
wait_for 30 both
lo_capture_stop
gpumem-read -q --port $port4 cap.pcap > got.csv || die "read: exit $?"
cmp -s want.csv got.csv || die "IPv4: $(diff want.csv got.csv | head -5)"
gpumem-read -q --port $port6 cap.pcap > got6.csv || die "read: exit $?"
cmp -s want6.csv got6.csv || die "IPv6: $(diff want6.csv got6.csv | head -5)"
# 4000 records of one GPU at one time: 3274 in a datagram, then 726 (the
# collector may still be reading: wait for what it must say).
wait_for 30 grep -q '^frame 3 0 3274 0 1767227400000000000$' sink4.txt ||
	die "no first half"
wait_for 30 grep -q '^frame 3 1 726 1 1767227400000000000$' sink4.txt ||
	die "no flagged second half"

