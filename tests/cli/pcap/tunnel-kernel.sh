# GMEM over a real VXLAN tunnel of the Linux kernel, captured on the
# underlay as a cluster's network carries it: in a private network
# namespace, vx0 (VNI 42, UDP port 4789 over a veth pair) carries what
# gpumem send sends to 10.9.0.2 and fd00:9::2 over UDP; tcpdump records
# the underlay (va, udp port 4789).  gpumem read of the capture gives the
# records sent, from the inner senders 10.9.0.1 and fd00:9::1, and counts
# the tunnels.  Skipped where the kernel has no VXLAN or no namespaces.
. "$TESTS/lib.sh"
if [ -z "${GPUMEM_TUNNEL_NS:-}" ]; then
	command -v unshare > /dev/null || skip "unshare is not installed"
	command -v ip > /dev/null || skip "ip (iproute2) is not installed"
	unshare -n true 2> /dev/null ||
		skip "no private network namespace: $(unshare -n true 2>&1 | head -n 1)"
	GPUMEM_TUNNEL_NS=1 exec unshare -n sh -eu "$0"
fi
ip link set lo up
# The underlay: a veth pair whose far end takes what it gets (an address
# of this namespace would be short-circuited by the VXLAN driver).
ip link add va type veth peer name vb 2> veth.err ||
	skip "no veth in this kernel: $(head -n 1 veth.err)"
ip addr add 10.1.0.1/24 dev va
ip link set va up
ip link set vb up
ip link add vx0 type vxlan id 42 local 10.1.0.1 remote 10.1.0.2 \
    dstport 4789 dev va 2> vx.err ||
	skip "no VXLAN in this kernel: $(head -n 1 vx.err)"
ip addr add 10.9.0.1/24 dev vx0
ip addr add fd00:9::1/64 dev vx0 nodad
ip link set vx0 up
# The far ends answer no neighbour discovery: their addresses are given.
ip neigh replace 10.1.0.2 lladdr 02:00:00:00:00:03 dev va
ip neigh replace 10.9.0.2 lladdr 02:00:00:00:00:02 dev vx0
ip neigh replace fd00:9::2 lladdr 02:00:00:00:00:02 dev vx0
gpumem-synth -s concurrent --gmem --host 10.9.0.1 > a.csv
gpumem-synth -s two-waiting --gmem --host fd00:9::1 > b.csv
gpumem-read -q a.csv b.csv > want.csv
command -v tcpdump > /dev/null || skip "tcpdump is not installed"
tcpdump -i va -n -U -w cap.pcap "udp port 4789" 2> cap.pcap.err &
cap_pid=$!
cap_file=cap.pcap
bg_add $cap_pid
wait_for 30 _lo_capture_ready || die "tcpdump did not start"
grep -q 'listening on' cap.pcap.err ||
	skip "cannot capture on va: $(head -n 1 cap.pcap.err)"
gpumem-send udp://10.9.0.2:9717 a.csv || die "send a.csv: exit $?"
gpumem-send udp://[fd00:9::2]:9717 b.csv || die "send b.csv: exit $?"
whole() {
	gpumem-read -q cap.pcap 2> /dev/null | cmp -s - want.csv
}
wait_for 30 whole || :
lo_capture_stop
gpumem-read cap.pcap > got.csv 2> err.txt || die "read: exit $?"
cmp -s want.csv got.csv || die "$(diff want.csv got.csv | head -5)"
# Every packet is a VXLAN one (a few carry the inner IPv6 neighbour and
# router discovery of vx0, not GMEM).
sed -n 's/.*: \([0-9]*\) packets, [0-9]* GMEM frames from 2 senders, tunnels decapsulated: \([0-9]*\) VXLAN).*/\1 \2/p' err.txt > n.txt
read pk vx < n.txt || die "summary: $(cat err.txt)"
expect_eq "VXLAN packets" "$vx" "$pk"
