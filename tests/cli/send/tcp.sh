# gpumem send over TCP to loopback, captured by tcpdump: gpumem read of
# the capture gives the sent records back byte for byte, over IPv4 and
# IPv6, three runs (three connections) one after another, and a timestamp
# of 4000 records of one GPU in one frame.  The collector (gmemsink) sees
# each GPU's last frame flagged.
. "$TESTS/lib.sh"
gpumem-synth -s demo --gmem --host 127.0.0.1 > a.csv
# The runs follow each other in time, as runs of one sender do (a sender's
# times that step back are a clock step: cli/read/clock-cat.sh).
gpumem-synth -s noise --gmem --host 127.0.0.1 --start 2026-01-01T00:10:00Z > b.csv
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (i = 0; i < 4000; i++)
		printf "1767227400000000000,127.0.0.1,3,%d,%d,1000,81920,\n", i + 1, i
}' > c.csv
gpumem-read -q a.csv b.csv c.csv > want.csv
gpumem-synth -s multi-gpu --gmem --host ::1 > want6.csv

sink_start sink4.txt
port4=$sink_port
sink_start sink6.txt -6
port6=$sink_port
lo_capture cap.pcap "tcp port $port4 or tcp port $port6"
for f in a.csv b.csv c.csv; do
	gpumem-send tcp://127.0.0.1:$port4 $f || die "send $f: exit $?"
done
gpumem-send tcp://[::1]:$port6 < want6.csv || die "send to [::1]: exit $?"
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
# The collector may still be reading: wait for what it must say.
wait_for 30 grep -q '^frame 3 0 4000 1 1767227400000000000$' sink4.txt ||
	die "no frame of 4000 records"
expect_eq "connections" "$(grep -c '^accept$' sink4.txt)" 3
# Each run's every GPU ends with one flagged frame.
gpus=$(($(cut -d, -f3 a.csv | sort -u | wc -l) - 1 +
    $(cut -d, -f3 b.csv | sort -u | wc -l) - 1 + 1))
expect_eq "last frames" "$(grep -c '^frame [0-9]* [0-9]* [0-9]* 1 ' sink4.txt)" $gpus
