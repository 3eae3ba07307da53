# Repeated sequence numbers, told apart by the whole frame: two
# recordings of one address merged by mergecap (frames that differ only
# in a middle record, process 2's, under the same numbers) keep every
# frame, said as restarts; one recording merged with itself (a datagram
# captured twice) loses none and keeps no copy.
. "$TESTS/lib.sh"
command -v mergecap > /dev/null || skip "mergecap is not installed"
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (s = 0; s < 12; s++) {
		printf "%d000000000,,0,0,3000,13384,16384,\n", 1767225600 + s
		for (p = 1; p <= 3; p++)
			printf "%d000000000,,0,%d,1000,13384,16384,\n", 1767225600 + s, p
	}
}' > a.csv
awk -F, 'BEGIN { OFS = "," } $4 == 2 { $5 = 999 } { print }' a.csv > b.csv
gpumem-pcap -q --src 10.0.0.5 -o a.pcap a.csv
gpumem-pcap -q --src 10.0.0.5 -o b.pcap b.csv
mergecap -w ab.pcap a.pcap b.pcap
mergecap -w aa.pcap a.pcap a.pcap
# Every distinct record of both (the same sample twice is one record).
cat a.csv b.csv | grep -v '^timestamp' | sed 's/,,0,/,10.0.0.5,0,/' |
    sort -u > want.txt
gpumem-read ab.pcap | tail -n +2 | sort > got.txt
cmp -s got.txt want.txt || die "ab: $(diff got.txt want.txt | head -5)"
gpumem-read aa.pcap | tail -n +2 | sort > got2.txt
sed 's/,,0,/,10.0.0.5,0,/' a.csv | tail -n +2 | sort > want2.txt
cmp -s got2.txt want2.txt || die "aa: $(diff got2.txt want2.txt | head -5)"
