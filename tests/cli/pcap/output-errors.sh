# A full disk is exit 2 with a message; -o into a missing directory too;
# the input's own trouble is exit 2 with the capture still written.
. "$TESTS/lib.sh"
gpumem-synth -s clean --gmem --host 10.0.0.7 > s.csv
rc=0; gpumem-pcap s.csv > /dev/full 2> err.txt || rc=$?
expect_eq "exit to /dev/full" $rc 2
grep -q "^gpumem-pcap: standard output: write error: No space left on device$" err.txt || die "$(cat err.txt)"
rc=0; gpumem-pcap -q -o nodir/out.pcap s.csv 2> err.txt || rc=$?
expect_eq "exit into a missing directory" $rc 2
[ -s err.txt ] || die "no message"
rc=0; gpumem-pcap -q -o out.pcap s.csv missing.csv 2> err.txt || rc=$?
expect_eq "exit with a missing input" $rc 2
gpumem-read -q out.pcap | cmp -s - s.csv || die "the readable input was not written"
