# Frames cut by the snapshot length (editcap -s, as tcpdump -s leaves
# them) were delivered by the network: they are counted as cut, never as
# frames lost in sequence gaps; a packet truly missing (editcap deleting
# one) is still counted lost.  The truth comes from tshark: packets whose
# captured length is under their length on the wire.
. "$TESTS/lib.sh"
command -v editcap > /dev/null || skip "no editcap"
command -v tshark > /dev/null || skip "no tshark"
gpumem-synth -s clean --gmem --host 10.0.0.7 > a.csv
gpumem-pcap -q -o a.pcap a.csv
editcap -s 96 a.pcap cut.pcap
# Packet 20 away as well: one frame that never arrived.
editcap cut.pcap gone.pcap 20
ncut() {
	tshark -r "$1" -T fields -e frame.cap_len -e frame.len 2> /dev/null |
	    awk '$1 < $2 { n++ } END { print n + 0 }'
}
npk() {
	tshark -r "$1" 2> /dev/null | wc -l | tr -d ' '
}
[ "$(ncut cut.pcap)" -gt 0 ] || die "editcap -s 96 cut nothing"
gpumem-read cut.pcap > /dev/null 2> err || :
expect_eq "summary, cut only" "$(tail -n 1 err | sed 's/.*GMEM frames* from 1 sender//')" \
    ", $(ncut cut.pcap) frames cut by the snapshot length); skipped $(ncut cut.pcap): $(ncut cut.pcap) unreadable"
gpumem-read gone.pcap > /dev/null 2> err || :
expect_eq "packets" "$(tail -n 1 err | sed 's/.*Ethernet: \([0-9]*\) packets.*/\1/')" "$(npk gone.pcap)"
expect_eq "summary, cut and one lost" "$(tail -n 1 err | sed 's/.*GMEM frames* from 1 sender//')" \
    ", 1 frame lost in sequence gaps (10.0.0.7 gpu 0: 1), $(ncut gone.pcap) frames cut by the snapshot length); skipped $(ncut gone.pcap): $(ncut gone.pcap) unreadable"
