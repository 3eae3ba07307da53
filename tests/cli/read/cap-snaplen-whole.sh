# Packets stored whole but longer than the snapshot length the file
# claims (a writer that records one snapshot length and stores more; the
# header patched by perl, as such a writer leaves it): read whole, as
# tshark does, in pcap and in pcapng (the interface's snapshot length).
# Packets truly cut by the snapshot length stay cut (tcpdump -s, editcap
# -s do that).
. "$TESTS/lib.sh"
gpumem-synth -s clean --gmem --host 10.0.0.7 > a.csv
gpumem-read -q a.csv > want.csv
gpumem-pcap -q -o a.pcap a.csv
gpumem-pcap -q --pcapng -o a.pcapng a.csv
# pcap: the snapshot length is bytes 16-19 of the file header.
perl -e 'binmode STDIN; binmode STDOUT; local $/; $d = <STDIN>;
	substr($d, 16, 4) = pack("V", 96); print $d' < a.pcap > s.pcap
# pcapng: bytes 12-15 of the first interface description block, which
# follows the section header block.
perl -e 'binmode STDIN; binmode STDOUT; local $/; $d = <STDIN>;
	$i = unpack("V", substr($d, 4, 4));
	unpack("V", substr($d, $i, 4)) == 1 or die "no IDB at $i";
	substr($d, $i + 12, 4) = pack("V", 96); print $d' < a.pcapng > s.pcapng
if command -v tshark > /dev/null; then
	expect_eq "tshark: packets over 96 bytes captured" \
	    "$(tshark -r s.pcap -T fields -e frame.cap_len 2> /dev/null | awk '$1 > 96' | wc -l)" \
	    "$(tshark -r a.pcap -T fields -e frame.cap_len 2> /dev/null | awk '$1 > 96' | wc -l)"
fi
for f in s.pcap s.pcapng; do
	gpumem-read $f > got.csv || die "$f: exit $?"
	cmp -s got.csv want.csv || die "$f: $(diff got.csv want.csv | head -3)"
done
# Truly cut (editcap -s 96): only the frames of packets of 96 bytes or
# less (Ethernet, IPv4, UDP: 42 bytes of headers, then 20 per header and
# record) are read.
command -v editcap > /dev/null || exit 0
command -v tshark > /dev/null || exit 0
editcap -s 96 a.pcap cut.pcap
want=$(tshark -r a.pcap -T fields -e frame.len 2> /dev/null |
    awk '$1 <= 96 { n += ($1 - 42 - 20) / 20 } END { print n + 0 }')
gpumem-read -q cut.pcap > got.csv 2> /dev/null || :
expect_eq "records of packets cut by editcap -s 96" "$(nrec got.csv)" "$want"
