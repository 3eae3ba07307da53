# A pcap cut inside a packet's bytes (head -c, as a capture copied while
# tcpdump still wrote it): every record of the packets before the cut is
# written, one line names the packet after which the file breaks and how
# many of its captured bytes came (libpcap's words), exit 2.  Where the
# cut falls is worked out from the record headers (pcapedit's list), not
# by gpumem.  The same in a piece of a rotation (editcap -c): the message
# names the piece and its own packet number.
. "$TESTS/lib.sh"
command -v editcap > /dev/null || skip "editcap is not installed"
gpumem-synth -s clean --gmem --host 10.0.0.7 > s.csv
gpumem-pcap -q s.csv > ok.pcap
# cut_in FILE K N: the offset N bytes into the data of packet K of FILE,
# and the message that cut should give.
cut_in() {
	"$TOOLS/pcapedit" "$1" | awk -v k="$2" -v n="$3" '
		BEGIN { off = 24 }
		$1 < k { off += 16 + $2 }
		$1 == k { printf "%d after packet %d: truncated dump file; tried to read %d captured bytes, only got %d\n", off + 16 + n, k - 1, $2, n }'
}
set -- $(cut_in ok.pcap 10 20)
head -c "$1" ok.pcap > cut.pcap
shift
rc=0
gpumem-read cut.pcap > got.csv 2> err.txt || rc=$?
expect_eq "exit" $rc 2
expect_eq "message" "$(head -n 1 err.txt)" "gpumem-read: cut.pcap: $*"
cat err.txt >&2
editcap -r ok.pcap first.pcap 1-9
gpumem-read -q first.pcap | cmp - got.csv || die "the records of packets 1 to 9"
head -n $(($(nrec got.csv) + 1)) s.csv | cmp - got.csv || die "records before the cut"
# A piece of a rotation, cut inside packet 5 of its own.
mkdir ed
editcap -F pcap -c 20 ok.pcap ed/part.pcap
p=$(ls ed/* | sed -n 2p)
set -- $(cut_in "$p" 5 3)
head -c "$1" "$p" > x.pcap
mv x.pcap "$p"
shift
rc=0
gpumem-read ed/*.pcap > got.csv 2> err.txt || rc=$?
expect_eq "exit" $rc 2
grep -qxF "gpumem-read: $p: $*" err.txt || die "no message of the cut: $(cat err.txt)"
cat err.txt >&2
