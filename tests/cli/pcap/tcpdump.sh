# tcpdump reads what gpumem pcap writes as sound packets on every link
# layer: every UDP and TCP checksum correct, IPv4 and IPv6 fragments where
# the MTU asks for them, nothing truncated or invalid.
. "$TESTS/lib.sh"
command -v tcpdump > /dev/null || skip "tcpdump is not installed"
gpumem-synth -s multi-gpu --gmem --host 10.0.0.7 > a.csv
gpumem-synth -s concurrent --gmem --host 2001:db8::7 > b.csv
# Frames of 20 records: IPv4 fragments below an MTU of 428.
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (t = 0; t < 5; t++)
		for (i = 0; i < 20; i++)
			printf "176722560%d000000000,10.0.0.9,0,%d,%d,1000,2000,\n", t, i, i
}' > c.csv
gpumem-read -q a.csv b.csv c.csv > s.csv
for link in ethernet sll sll2 raw null loop; do
	for o in "" "--tcp --segment 50" "--mtu 128"; do
		gpumem-pcap -q --link $link $o s.csv > out.pcap
		tcpdump -r out.pcap -nn -vv > dump.txt 2> err.txt ||
			die "$link $o: tcpdump: $(cat err.txt)"
		n=$("$TOOLS/pcapedit" out.pcap | wc -l)
		# Every packet but a fragment has its checksum checked.
		ok=$(grep -c -e 'udp sum ok' -e 'cksum 0x[0-9a-f]* (correct)' dump.txt || :)
		frag=$(grep -c -e 'flags \[+\]' -e 'offset [1-9]' -e ': frag (' dump.txt || :)
		expect_eq "$link $o: packets checked" "$ok" "$((n - frag))"
		case $o in
		--mtu*) [ "$frag" -gt 50 ] || die "$link: only $frag fragments" ;;
		*) expect_eq "$link $o: fragments" "$frag" 0 ;;
		esac
		! grep -q -e 'bad [a-z]* *cksum' -e 'incorrect' -e 'invalid' \
		    -e 'truncated' -e '\[|' dump.txt ||
			die "$link $o: $(grep -m 3 -e 'bad [a-z]* *cksum' -e incorrect -e invalid -e truncated -e '\[|' dump.txt)"
	done
done
