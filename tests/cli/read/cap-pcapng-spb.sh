# pcapng with Simple Packet Blocks (issue 31): an SPB holds min(original
# length, the interface's snapshot length) bytes of its packet (the
# pcapng spec, 4.4).  Files written from the specs by
# tests/tools/gmemcap.py: five GMEM datagrams, each Ethernet frame with its
# FCS (4 bytes counted in the original length), on an interface whose
# snapshot length of 82 keeps the IP packet and cuts the FCS: 5 of 5
# records, as the spec lines say, as tshark with contrib's dissector reads
# them, compressed too.  No snapshot length (0): the same.  A snapshot
# length of 62, cutting the frames: every packet read, each frame said
# cut, at its 62nd byte (20 of its 40 bytes).
. "$TESTS/lib.sh"
awk 'BEGIN { for (i = 0; i < 5; i++)
	printf "10.0.0.%d 40000 %d %d 0 %d000000000 %d\n", i % 2 + 1, i % 2,
	    int(i / 2), 1767225600 + i, 100 * (i + 1) }' > spec.txt
awk '{ printf "%s,%s,%s,0,%s,%d,8192,\n", $6, $1, $3, $7, 8192 - $7 }' \
    spec.txt > want.txt
python3 "$TESTS/tools/gmemcap.py" --spb 82 --fcs spb.pcapng < spec.txt
gpumem-read spb.pcapng > got.csv
tail -n +2 got.csv | cmp - want.txt || die "snapshot length 82: records differ"
gzip -c spb.pcapng > spb.pcapng.gz
gpumem-read -q spb.pcapng.gz | tail -n +2 | cmp - want.txt ||
	die "gzip: records differ"
python3 "$TESTS/tools/gmemcap.py" --spb 0 --fcs spb0.pcapng < spec.txt
gpumem-read spb0.pcapng | tail -n +2 | cmp - want.txt ||
	die "no snapshot length: records differ"
python3 "$TESTS/tools/gmemcap.py" --spb 62 spb62.pcapng < spec.txt
rc=0
gpumem-read spb62.pcapng > got62.csv || rc=$?
expect_eq "snapshot length 62: exit" $rc 2
if command -v tshark > /dev/null; then
	export HOME=$PWD	# tshark keeps its profile there
	if tshark -v 2> /dev/null | grep -q 'with Lua'; then
		sh "$TESTS/tools/tsharkrecs.sh" spb.pcapng | cmp - want.txt ||
			die "tshark reads other records"
	fi
fi
