# Differential on captures neither implementation has seen, written by
# tools/gmemodd.py from the specs alone with the records sent as their
# truth: a TCP ack ahead of the data (every segment then looks like a
# spurious retransmission to Wireshark), or of every other segment (TCP
# hands the others over afresh), segments out of order (pairs swapped,
# the first after all others), each segment twice, segments that
# overlap the one before (new data behind retransmitted bytes), UDP
# datagrams shorter than their IP packet (trailing bytes), datagrams whose
# UDP length runs past their IP packet (damaged: no records, as gpumem
# read refuses them; 192.0.2.9's), and a second collector port over UDP
# and TCP, and UDP to NTP's port 123.  tshark with
# contrib/wireshark/gmem.lua and gpumem read must each give the records
# sent, every field.
. "$TESTS/lib.sh"
command -v tshark > /dev/null || skip "tshark is not installed"
export HOME=$PWD	# tshark keeps its profile there
tshark -v 2> /dev/null | grep -q 'with Lua' || skip "tshark has no Lua"
for c in ack-ahead ack-some reorder first-late twice overlap overlap-hdr \
    udp-short udp-long port2; do
	python3 "$TESTS/tools/gmemodd.py" $c $c.pcap | sort > truth.csv
	[ -s truth.csv ] || die "$c: no truth"
	sh "$TESTS/tools/tsharkrecs.sh" $c.pcap | sort > tshark.csv
	cmp -s truth.csv tshark.csv ||
		die "$c: tshark: $(diff truth.csv tshark.csv | head -4)"
	gpumem-read -q $c.pcap | tail -n +2 | sort > read.csv
	cmp -s truth.csv read.csv ||
		die "$c: gpumem read: $(diff truth.csv read.csv | head -4)"
done
# gpumem read says each damaged datagram (packet and offset), not as
# traffic of another protocol.
n=$(gpumem-read -q udp-long.pcap 2>&1 > /dev/null |
    grep -c 'GMEM datagram whose UDP length 72 runs past its IP packet (68' || :)
expect_eq "udp-long: damaged datagrams said" "$n" 6
