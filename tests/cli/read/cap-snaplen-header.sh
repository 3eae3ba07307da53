# Packets cut by the snapshot length inside the UDP header (editcap -s
# 38: Ethernet, IPv4 and 4 of UDP's 8 bytes) or inside the GMEM magic
# (-s 44: 2 of its 4 bytes) cannot be told GMEM or not: they are counted
# as cut by the snapshot length, not as non-GMEM packets.  The truth:
# tshark's count of GMEM datagrams (UDP port 9717) in the whole capture.
. "$TESTS/lib.sh"
command -v editcap > /dev/null || skip "no editcap"
command -v tshark > /dev/null || skip "no tshark"
gpumem-synth -s clean --gmem --host 10.0.0.7 > a.csv
gpumem-pcap -q -o a.pcap a.csv
n=$(tshark -r a.pcap -Y 'udp.port == 9717' 2> /dev/null | wc -l | tr -d ' ')
[ "$n" -gt 0 ] || die "tshark saw no GMEM datagram"
for s in 38 44; do
	editcap -s $s a.pcap c$s.pcap
	gpumem-read c$s.pcap > /dev/null 2> err || :
	expect_eq "-s $s" "$(tail -n 1 err | sed 's/.*; skipped/skipped/')" \
	    "skipped $n: $n packets cut by the snapshot length"
done
