# Counts and lengths at their maxima.  GMEM frames of 65535 records (the
# most a count can say) over TCP, UDP with IP fragments and pcapng read
# back exactly; a datagram whose count says 65535 but holds two records is
# a bad frame, counted; a pcap record of 2^32-1 bytes, a pcapng block of
# 2^32-4 and a pcap snapshot length of 2^32-1 are refused at once, never
# allocated.  Host and process names longer than 4096 bytes are cut to
# 4096 and counted, in text and in the binary form between tools.
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	printf "1767225600000000000,10.0.0.7,0,0,70000,4294897295,4294967295,\n"
	for (p = 1; p <= 70000; p++)
		printf "1767225600000000000,10.0.0.7,0,%d,1,4294967295,4294967295,\n", p
}' > max.csv
for opts in --tcp "--mtu 1500" "--pcapng --tcp"; do
	gpumem-pcap -q $opts -o m.pcap max.csv
	gpumem-read m.pcap > back.csv
	cmp -s back.csv max.csv || die "$opts: the records did not read back"
done
# Packet 1's count field (UDP payload offset 12) set to 65535.
gpumem-synth -s leak --gmem --host 10.0.0.7 -o s.csv
gpumem-pcap -q -o s.pcap s.csv
"$TOOLS/pcapedit" s.pcap c.pcap poke 1 54 255 poke 1 55 255
rc=0; gpumem-read -o /dev/null c.pcap || rc=$?
echo "exit $rc"
# pcap: snapshot length 2^32-1, then a record of 2^32-1 bytes.
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000' > big.pcap
printf '\377\377\377\377\001\000\000\000' >> big.pcap
printf '\000\000\000\000\000\000\000\000\377\377\377\377\377\377\377\377' >> big.pcap
head -c 100 /dev/zero >> big.pcap
rc=0; gpumem-read -o /dev/null big.pcap || rc=$?
echo "exit $rc"
# pcapng: a section header, then an interface block of 2^32-4 bytes.
printf '\012\015\015\012\034\000\000\000\115\074\053\032\001\000\000\000' > big.pcapng
printf '\377\377\377\377\377\377\377\377\034\000\000\000' >> big.pcapng
printf '\001\000\000\000\374\377\377\377' >> big.pcapng
head -c 100 /dev/zero >> big.pcapng
rc=0; gpumem-read -o /dev/null big.pcapng || rc=$?
echo "exit $rc"
# Names of 4096 bytes pass whole; of 4097 and 100000, cut.
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (i = 0; i < 4096; i++) a = a "a"
	b = a "b"
	for (i = 0; i < 100000; i++) c = c "c"
	printf "1,%s,0,1,5,,,%s\n", a, a
	printf "2,h,0,2,5,,,%s\n", b
	printf "3,%s,0,3,5,,,%s\n", c, c
}' > names.csv
gpumem-read names.csv | awk -F, 'NR > 1 { print length($2), length($8) }'
GPUMEM_STREAM=binary gpumem-read -q names.csv | gpumem-read -q |
    awk -F, 'NR > 1 { print length($2), length($8) }'
exit 0
