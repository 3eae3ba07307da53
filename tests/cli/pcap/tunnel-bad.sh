# Tunnels gpumem read cannot open, each named by its packet and counted:
# nested deeper than four, headers cut by the snapshot length (editcap -s,
# as tcpdump -s cuts them), headers longer than their packet (a GRE
# packet whose IP length ends in its key, a Geneve header whose options
# run past the datagram).  The packets around them are read.  Tunnels by
# tests/tools/tunnel.py, checked by tshark in cli/pcap/tunnel.sh.
. "$TESTS/lib.sh"
command -v python3 > /dev/null || skip "python3 is not installed"
command -v editcap > /dev/null || skip "editcap is not installed"
gpumem-synth -s concurrent --gmem --host 10.0.0.7 --duration 3s > want.csv
gpumem-pcap -q want.csv > udp.pcap
"$TOOLS/pcapedit" udp.pcap
tunnel() {
	python3 "$TESTS/tools/tunnel.py" udp.pcap "$@" || die "tunnel.py $*"
}
show() {
	echo "== $*"
	rc=0
	gpumem-read "$@" > got.csv 2> err.txt || rc=$?
	echo "exit $rc, $(nrec got.csv) records"
	cat err.txt
}
# Five deep: none read; four deep: all.
tunnel deep.pcap ipip4 gre4 vxlan4 geneve4 gre6
show deep.pcap
tunnel four.pcap ipip4 gre4 vxlan4 geneve4
show four.pcap
cmp -s want.csv got.csv || die "four deep: $(diff want.csv got.csv | head -5)"
# Cut by the snapshot length: in GRE's key (outer Ethernet and IPv4 are
# 34 bytes), in VXLAN's inner Ethernet header (UDP ends at 42), in
# Geneve's options.
tunnel gre.pcap gre4:key=7,seq,eth
editcap -s 40 gre.pcap gre-cut.pcap
show gre-cut.pcap
tunnel vxlan.pcap vxlan4
editcap -s 60 vxlan.pcap vxlan-cut.pcap
show vxlan-cut.pcap
tunnel geneve.pcap geneve4:opts=12
editcap -s 56 geneve.pcap geneve-cut.pcap
show geneve-cut.pcap
# Only packet 2 of each: the rest are read.
editcap -s 40 -r gre.pcap gre2.pcap 2
editcap -r gre.pcap gre1.pcap 1
editcap -r gre.pcap gre3.pcap 3-100
mergecap -a -w gre-one.pcap gre1.pcap gre2.pcap gre3.pcap
show gre-one.pcap
sed 3d want.csv | cmp -s - got.csv || die "gre-one: not the others"
# Too short on the wire: the IPv4 total length of packet 2 (bytes 16-17)
# says 26, 6 bytes after the IP header, where the GRE header with its key,
# sequence number and the Ethernet header it carries needs 26; the
# Geneve options of packet 3 (byte 42: 63 words) run past its datagram.
"$TOOLS/pcapedit" gre.pcap gre-short.pcap poke 2 16 0 poke 2 17 26
show gre-short.pcap
sed 3d want.csv | cmp -s - got.csv || die "gre-short: not the others"
"$TOOLS/pcapedit" geneve.pcap geneve-long.pcap poke 3 42 63
show geneve-long.pcap
sed 4d want.csv | cmp -s - got.csv || die "geneve-long: not the others"
