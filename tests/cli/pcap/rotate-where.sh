# The pieces editcap -c cuts a capture into (part_00000_20260101000000.pcap,
# ...), read as one recording: a damaged frame in a piece is said with that
# piece's name and its packet number in it; a piece of another link type
# (gpumem pcap --link sll) is not joined, and the number it leaves out of
# the recording is said as a missing file; --no-join reads each on its
# own.  Nothing is lost or made up: the records are those of the stream
# written, but for the damaged frame's.
. "$TESTS/lib.sh"
command -v editcap > /dev/null || skip "editcap is not installed"
gpumem-synth -s multi-gpu --gmem --host 10.0.0.7 > s.csv
gpumem-read -q s.csv > want.csv
gpumem-pcap -q s.csv > all.pcap
gpumem-pcap -q --link sll s.csv > sll.pcap
mkdir ed sll
editcap -F pcap -c 40 all.pcap ed/part.pcap
editcap -F pcap -c 40 sll.pcap sll/part.pcap
# Byte 46 of a packet: the version of its GMEM frame.
"$TOOLS/pcapedit" ed/part_00003_20260101000015.pcap x.pcap poke 2 46 0x09
mv x.pcap ed/part_00003_20260101000015.pcap
mv sll/part_00005_20260101000025.pcap ed/
rc=0
gpumem-read ed/*.pcap > got.csv || rc=$?
expect_eq "exit" $rc 0
expect_eq "records" "$(nrec got.csv)" 694
sort want.csv > want.sorted
sort got.csv | comm -13 want.sorted - | grep -q . && die "records made up"
gpumem-read -q --no-join ed/*.pcap | sort | cmp -s - "$(sort got.csv > got.sorted; echo got.sorted)" ||
	die "--no-join: other records"
gpumem-read --no-join ed/*.pcap 2>&1 > /dev/null | grep -c ' records (pcap' >&2
