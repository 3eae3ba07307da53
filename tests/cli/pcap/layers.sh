# Every link layer gpumem pcap writes (and gpumem read reads), VLAN and
# QinQ tags, IPv4 and IPv6 fragments, microsecond times, the other byte
# order: the stream comes back the same.
. "$TESTS/lib.sh"
gpumem-synth -s concurrent --gmem --host 10.0.0.7 > a.csv
gpumem-synth -s two-waiting --gmem --host fd00::17 > b.csv
gpumem-read -q a.csv b.csv > want.csv
check() {
	gpumem-pcap -q "$@" want.csv > out.pcap || die "pcap $*: exit $?"
	gpumem-read -q out.pcap > got.csv || die "read $*: exit $?"
	cmp -s want.csv got.csv || die "$*: differs: $(diff want.csv got.csv | head -5)"
}
for link in ethernet sll sll2 raw null loop; do
	check --link $link
	check --link $link --tcp --segment 9
done
check --vlan 100
check --vlan 100,200 --tcp
check --mtu 128
check --mtu 200 --tcp --segment 1000
check --usec
check --usec --pcapng
check --dst 198.51.100.1 --dst 2001:db8::1 --dport 5000
# The other byte order, with both time resolutions.
for t in "" --usec; do
	gpumem-pcap -q $t --tcp want.csv > le.pcap
	"$TOOLS/pcapedit" le.pcap be.pcap swapend
	head -c 4 be.pcap | od -An -tx1 | grep -q 'a1 b2' || die "not big-endian"
	gpumem-read -q be.pcap > got.csv || die "big-endian: exit $?"
	cmp -s want.csv got.csv || die "big-endian $t differs"
done
# Frames of a thousand records exceed the MTU: IP fragments.  Past 3274
# records a datagram cannot hold them: several frames.
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (t = 0; t < 3; t++)
		for (g = 0; g < 2; g++)
			for (i = 0; i < (g == 0 ? 1000 : 4000); i++)
				printf "176722560%d000000000,10.1.2.3,%d,%d,%d,%d,81559,\n", t, g, i, i % 100, 5000 + i
}' > big.csv
for o in "" --tcp "--pcapng --mtu 9000"; do
	gpumem-pcap -q $o big.csv > big.pcap
	gpumem-read big.pcap > got.csv 2> err.txt || die "big $o: exit $?"
	cmp -s big.csv got.csv || die "big frames $o differ"
done
grep -q "^gpumem-read: big.pcap: 15000 records (pcapng capture, Ethernet: 39 packets, 9 GMEM frames from 1 sender)$" err.txt ||
	die "big frames: $(cat err.txt)"
