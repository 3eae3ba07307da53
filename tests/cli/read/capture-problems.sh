# A UDP capture with what real ones have: a datagram captured twice (the
# copy is dropped), one lost (a sequence gap), two swapped (late, not
# lost), a frame of another version, one cut by the snapshot length (both
# reported with packet number and offset, and counted), a datagram that
# is not GMEM (counted).  The rest is read.
. "$TESTS/lib.sh"
gpumem-synth -s clean --gmem --host 10.0.0.7 > s.csv
gpumem-pcap -q s.csv > ok.pcap
"$TOOLS/pcapedit" ok.pcap bad.pcap dup 5 drop 10 swap 20 21 poke 30 46 2 \
    cut 40 50 poke 45 42 0x58
rc=0; gpumem-read bad.pcap > got.csv || rc=$?
echo "exit $rc"
# Exactly the records of the frames lost (packets 10, 30, 40 and 45 of
# ok.pcap: ticks 9, 29, 39, 44) are missing.
grep -v -e '^1767225609' -e '^1767225629' -e '^1767225639' \
    -e '^1767225644' s.csv | cmp - got.csv || die "records differ"
rc=0; gpumem-read --strict bad.pcap > /dev/null || rc=$?
echo "exit $rc with --strict"
# A frame that comes late beyond the reorder window is named by packet.
"$TOOLS/pcapedit" ok.pcap late.pcap swap 20 22
gpumem-read -q --window 1 late.pcap | grep -c '^1767225621'
