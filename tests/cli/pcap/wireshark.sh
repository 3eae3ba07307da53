# The Wireshark dissector (contrib/wireshark/gmem.lua) reads, through
# tshark, the same values as gpumem read: every field of every record,
# over UDP, IP fragments and TCP (frames across segments), IPv4 and IPv6,
# pcap and pcapng, on the GMEM port and another one.  Malformed frames
# get its expert info; its fields have the spec's names.
. "$TESTS/lib.sh"
command -v tshark > /dev/null || skip "tshark is not installed"
lua=$TESTS/../contrib/wireshark/gmem.lua
export HOME=$PWD	# tshark keeps its profile there
tshark -v 2>/dev/null | grep -q 'with Lua' || skip "tshark has no Lua"
gpumem-synth -s multi-gpu --gmem --host 10.0.0.7 > a.csv
gpumem-synth -s slow-release --gmem --host 2001:db8::7 > b.csv
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (t = 0; t < 5; t++)
		for (i = 0; i < 100; i++)
			printf "176722560%d000000000,10.0.0.9,3,%d,%d,%.0f,,\n", t, i, i * 7, 4294967295 - i
}' > c.csv
gpumem-read -q a.csv b.csv c.csv > s.csv
for o in "" "--tcp" "--tcp --segment 7 --pcapng" "--mtu 300" \
    "--dport 5000 --tcp --segment 100" "--dport 5000"; do
	gpumem-pcap -q $o s.csv > out.pcap
	gpumem-read -q out.pcap > got.csv || die "$o: gpumem read: exit $?"
	cmp -s s.csv got.csv || die "$o: gpumem read differs"
	sh "$TESTS/tools/tsharkrecs.sh" out.pcap > tshark.csv ||
		die "$o: tshark failed"
	tail -n +2 got.csv | cmp -s - tshark.csv ||
		die "$o: tshark differs: $(tail -n +2 got.csv | diff - tshark.csv | head -5)"
done
# The spec's names, each one there.
tshark -G fields -X lua_script:"$lua" 2>/dev/null | cut -f3 | grep '^gmem\.' |
	sort > names.txt
for n in magic version flags flags.last gpu sequence count reserved \
    memory_total record timestamp memory_used memory_free process_id; do
	grep -qx "gmem\.$n" names.txt || die "no field gmem.$n"
done
# Expert info for what gpumem read reports as malformed (the version,
# flags, reserved field of frames 3, 5, 7; frame 9 one record short).
gpumem-pcap -q a.csv > ok.pcap
"$TOOLS/pcapedit" ok.pcap bad.pcap poke 3 46 2 poke 5 47 2 poke 7 57 1 \
    poke 9 55 3
tshark -X lua_script:"$lua" -r bad.pcap -Y '_ws.expert.group == "Malformed"' \
    -T fields -e frame.number -e _ws.expert.message 2>/dev/null
gpumem-read -q bad.pcap 2>&1 > /dev/null
