# A capture that breaks part way: the records before the break are
# written, one line says why, exit 2.  One libpcap cannot open: one line,
# exit 2.  A capture without telemetry is no error.
. "$TESTS/lib.sh"
gpumem-synth -s clean --gmem --host 10.0.0.7 > s.csv
gpumem-pcap -q s.csv > ok.pcap
head -c 3000 ok.pcap > cut.pcap
rc=0; gpumem-read cut.pcap > got.csv || rc=$?
echo "exit $rc"
n=$(nrec got.csv)
head -n $((n + 1)) s.csv | cmp - got.csv || die "records before the cut"
gzip -c ok.pcap | head -c 1000 > cut.pcap.gz
rc=0; gpumem-read cut.pcap.gz > got.csv || rc=$?
echo "exit $rc"
head -n $(($(nrec got.csv) + 1)) s.csv | cmp - got.csv || die "records before the gzip cut"
# The version libpcap does not know.
printf '\324\303\262\241\002\000\011\000' > v.pcap
tail -c +9 ok.pcap >> v.pcap
rc=0; gpumem-read v.pcap || rc=$?
echo "exit $rc"
# Not telemetry at all: an ARP packet.
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\001\000\000\000' > arp.pcap
printf '\000\000\000\000\000\000\000\000\052\000\000\000\052\000\000\000' >> arp.pcap
printf '\377\377\377\377\377\377\002\000\000\000\000\001\010\006' >> arp.pcap
head -c 28 /dev/zero >> arp.pcap
rc=0; gpumem-read arp.pcap || rc=$?
echo "exit $rc"
