# GMEM captured on the underlay of a cluster network: inside VXLAN (port
# 4789 and Linux's 8472), GRE over IPv4 and IPv6 (carrying IP or
# Ethernet, with checksum, key and sequence fields), Geneve with options
# and IP in IP, nested up to four deep, the outer packets in fragments,
# GMEM over UDP and over TCP.  gpumem read gives every record given and no
# other, and the summary line counts the tunnels.  The tunnels are made
# by the test's own encoder from the RFCs (tests/tools/tunnel.py), and
# tshark decodes every packet down to the inner transport, checksums
# checked, before gpumem reads it.
. "$TESTS/lib.sh"
command -v python3 > /dev/null || skip "python3 is not installed"
command -v tshark > /dev/null || skip "tshark is not installed"
export HOME=$PWD	# tshark keeps its profile there
gpumem-synth -s concurrent --gmem --host 10.0.0.7 > a.csv
gpumem-synth -s two-waiting --gmem --host fd00::17 > b.csv
gpumem-read -q a.csv b.csv > want.csv
gpumem-pcap -q want.csv > udp.pcap
gpumem-pcap -q --tcp --segment 100 want.csv > tcp.pcap
# tunnel IN LAYER...: IN.pcap in the tunnels (tunnel.py) as t.pcap.
tunnel() {
	_in=$1
	shift
	python3 "$TESTS/tools/tunnel.py" $_in.pcap t.pcap "$@" ||
		die "tunnel.py $*"
}
# decoded STACK: tshark decodes STACK (from the outer IP down) in as many
# packets as udp.pcap or tcp.pcap hold, and warns of nothing (a warning
# or an error: 0x600000 and up).
decoded() {
	tshark -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
	    -o tcp.check_checksum:TRUE -d udp.port==8472,vxlan -r t.pcap \
	    -T fields -e frame.protocols -e _ws.expert.severity \
	    -e _ws.expert.message > ts.txt 2> /dev/null ||
		die "tshark cannot read t.pcap"
	want=$("$TOOLS/pcapedit" $in.pcap | wc -l)
	got=$(grep -c -e "^eth:ethertype:$1:" -e "^eth:ethertype:$1	" ts.txt ||
	    :)
	expect_eq "$in $layers: packets tshark decodes to $1" "$got" "$want"
	awk -F '\t' '{ n = split($2, s, ","); for (i = 1; i <= n; i++)
	    if (s[i] + 0 >= 6291456) { print; exit 1 } }' ts.txt > warn.txt ||
		die "$in $layers: tshark: $(cat warn.txt)"
}
# read_all: gpumem read gives want.csv; its summary line on stdout.
read_all() {
	gpumem-read t.pcap > got.csv 2> err.txt || die "$in $layers: exit $?"
	cmp -s want.csv got.csv ||
		die "$in $layers: $(diff want.csv got.csv | head -5)"
	echo "== $in $layers"
	sed 's/^gpumem-read: t.pcap: //' err.txt
}
# check IN STACK LAYER...
check() {
	in=$1 stack=$2
	shift 2
	layers="$*"
	tunnel $in "$@"
	# What tshark sees does not depend on the build variant.
	case $VARIANT/$in in
	normal/udp) decoded "$stack:udp" ;;
	normal/tcp) decoded "$stack:tcp" ;;
	esac
	read_all
}
for in in udp tcp; do
	check $in 'ip:udp:vxlan:eth:ethertype:ip[v6]*' vxlan4
	check $in 'ipv6:udp:vxlan:eth:ethertype:ip[v6]*' vxlan6:port=8472
	check $in 'ip:gre:ip[v6]*' gre4
	check $in 'ip:gre:eth:ethertype:ip[v6]*' gre4:key=7,seq,eth
	check $in 'ip:gre:ip[v6]*' gre4:csum
	check $in 'ipv6:gre:ip[v6]*' gre6
	check $in 'ipv6:gre:eth:ethertype:ip[v6]*' gre6:csum,key=9,seq,eth
	check $in 'ip:udp:geneve:ip[v6]*' geneve4:opts=12
	check $in 'ipv6:udp:geneve:eth:ethertype:ip[v6]*' geneve6:opts=252,eth
	check $in 'ip:ip[v6]*' ipip4
	check $in 'ip:gre:eth:ethertype:ip:udp:vxlan:eth:ethertype:ip[v6]*' vxlan4 gre4:eth
	check $in 'ip:udp:geneve:ipv6:udp:vxlan:eth:ethertype:ip:gre:ip:ip[v6]*' ipip4 gre4 vxlan6 geneve4:opts=4
	# The outer packets in fragments: one packet a datagram to tshark.
	check $in 'ip:udp:vxlan:eth:ethertype:ip[v6]*' vxlan4 frag=120
	check $in 'ipv6:ipv6.fraghdr:gre:eth:ethertype:ip[v6]*' gre6:eth frag=120
done
# GMEM sent to a tunnel's port is GMEM, not a tunnel.
for port in 4789 8472 6081; do
	gpumem-pcap -q --dport $port want.csv > t.pcap
	in="gmem to port" layers=$port
	read_all
done
