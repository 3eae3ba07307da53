# Frames larger than the MTU arrive in IP fragments (IPv4 and IPv6), in
# any order, some twice; a datagram missing a fragment is counted as never
# complete (its frame is a sequence gap), the others are read.
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (t = 0; t < 4; t++) {
		for (i = 0; i < 50; i++)
			printf "176722560%d000000000,10.0.0.7,0,%d,%d,1000,2000,\n", t, i, i
		for (i = 0; i < 50; i++)
			printf "176722560%d000000000,2001:db8::7,1,%d,%d,1000,,\n", t, i, i
	}
}' > s.csv
# 1020-byte frames, 4 fragments each: per sample packets 1-4 from
# 10.0.0.7, 5-8 from 2001:db8::7 (then 9-16 for the next one...).
gpumem-pcap -q --mtu 300 s.csv > ok.pcap
"$TOOLS/pcapedit" ok.pcap | awk '{ n[$2]++ } END { for (s in n) print s, n[s] }' | sort -n
# Reversed, interleaved and repeated fragments: all read.
"$TOOLS/pcapedit" ok.pcap a.pcap swap 1 4 swap 2 3 swap 5 9 dup 6 swap 10 14 \
    dup 12 dup 13
gpumem-read a.pcap | cmp - s.csv || die "reordered fragments"
# The second IPv6 datagram (packets 13-16) loses a fragment: its frame
# is lost, a sequence gap.
"$TOOLS/pcapedit" ok.pcap b.pcap drop 15
grep -v '^1767225601000000000,2001:db8::7,' s.csv > want.csv
gpumem-read b.pcap | cmp - want.csv || die "a lost fragment"
