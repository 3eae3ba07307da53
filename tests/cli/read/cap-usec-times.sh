# Packet times of a microsecond pcap (editcap -F pcap of gpumem pcap's
# nanosecond one) are read to the microsecond: an IP fragment waits 30 s
# for the rest of its datagram (FRAG_TIMEOUT), so a second fragment that
# comes 29.999999 s after the first completes it and one that comes
# 30.000001 s after it does not.  The late fragments are made by swapping
# each big datagram's second fragment with the small packet of another
# sender that follows it; the records of the datagram that came too late
# are lost, every other one is read as awk wrote it.  The nanosecond
# capture the microsecond one was made from says the same.
. "$TESTS/lib.sh"
command -v editcap > /dev/null || skip "editcap is not installed"
# Frames: 100 records at 0 s (two fragments), 1 at 29.999999 s (another
# sender), 100 at 60 s (two fragments), 1 at 90.000001 s (the other).
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	t0 = 1767225600
	split("0 29999999 60000000 90000001", us, " ")
	split("100 1 100 1", n, " ")
	for (f = 1; f <= 4; f++)
		for (p = 1; p <= n[f]; p++)
			printf "%d%06d000,10.0.0.%d,0,%d,%d,%d,100000,\n",
			    t0 + int(us[f] / 1000000), us[f] % 1000000,
			    f % 2 ? 7 : 8, p, 1000 * f + p, 99000 - 1000 * f - p
}' > s.csv
gpumem-pcap -q s.csv > ns.pcap
editcap -F pcap ns.pcap us.pcap
expect_eq "magic of the microsecond pcap" \
    "$(head -c 4 us.pcap | od -An -tx1 | tr -d ' ')" d4c3b2a1
expect_eq "packets" "$("$TOOLS/pcapedit" us.pcap | tr '\n' ' ')" \
    "1 1514 1514 2 582 582 3 82 82 4 1514 1514 5 582 582 6 82 82 "
gpumem-read -q us.pcap | cmp - s.csv || die "the capture in order"
grep -v '^1767225660' s.csv > want.csv
for f in us ns; do
	"$TOOLS/pcapedit" $f.pcap late-$f.pcap swap 2 3 swap 5 6
	gpumem-read late-$f.pcap > got.csv
	cmp got.csv want.csv || die "$f: $(diff got.csv want.csv | head -3)"
done
