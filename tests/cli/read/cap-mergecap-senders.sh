# Captures of several senders merged with mergecap, each made by gpumem
# pcap from a gpumem synth stream stamped with its sender's clock, its
# packets at the true time (editcap -t) (issue 31): A (10.0.0.1, two
# GPUs) true; B (10.0.0.2) 19 s ahead; R, A restarted on its address and
# port (gpumem pcap's first) after A ends, its clock 60 s behind, its
# sequence numbered anew.  Over UDP and over TCP (A and B), and the UDP
# merge rotated by editcap -c and read in one call: every record as each
# sender stamped it (the synth streams, sorted), no clock step said.
. "$TESTS/lib.sh"
command -v mergecap > /dev/null || skip "mergecap is not installed"
command -v editcap > /dev/null || skip "editcap is not installed"
gpumem-synth -s demo --gmem --host 10.0.0.1 > a.csv
gpumem-synth -s concurrent --gmem --host 10.0.0.2 \
    --start 2026-01-01T00:00:19Z > b.csv
gpumem-synth -s slow-release --gmem --host 10.0.0.1 \
    --start 2026-01-01T00:03:00Z > r.csv
# same NAME WANT: the records of NAME's read, sorted, are WANT's.
same() {
	gpumem-read "$1" > got.csv 2> err.txt || die "$1: exit $?"
	tail -n +2 got.csv | sort | cmp -s - "$2" ||
		die "$1: $(tail -n +2 got.csv | sort | diff "$2" - | head -5)"
	! grep -q clock err.txt || die "$1: $(cat err.txt)"
}
for o in --tcp ""; do
	gpumem-pcap -q $o a.csv > a.pcap
	gpumem-pcap -q $o b.csv > b19.pcap
	editcap -t -19 b19.pcap b.pcap
	mergecap -F pcap -w ab.pcap a.pcap b.pcap
	tail -n +2 a.csv > want.txt
	tail -n +2 b.csv >> want.txt
	sort want.txt > want-ab.txt
	same ab.pcap want-ab.txt
done
gpumem-pcap -q r.csv > r60.pcap
editcap -t 60 r60.pcap r.pcap
mergecap -F pcap -w abr.pcap a.pcap b.pcap r.pcap
tail -n +2 r.csv >> want.txt
sort want.txt > want-abr.txt
same abr.pcap want-abr.txt
grep -q "sequence restart (10.0.0.1 gpu 0: 1)" err.txt || die "$(cat err.txt)"
editcap -c 100 abr.pcap part.pcap
gpumem-read part_*.pcap 2> err.txt | tail -n +2 | sort | cmp -s - want-abr.txt ||
	die "rotated: records differ"
! grep -q clock err.txt || die "rotated: $(cat err.txt)"
