# pcapng files libpcap refuses part way (two sections with interfaces of
# different link types, as mergecap or cat make them) are read on by
# gpumem's own pcapng reader: every record, in order, plain or gzip.  A
# file that breaks in that part is exit 2 with the records before kept.
. "$TESTS/lib.sh"
gpumem-synth -s clean --gmem --host 10.0.0.7 > a.csv
gpumem-synth -s leak --gmem --host 2001:db8::8 > b.csv
gpumem-read -q a.csv b.csv > want.csv
gpumem-pcap -q --pcapng --link raw a.csv > a.pcapng
gpumem-pcap -q --pcapng --tcp --usec b.csv > b.pcapng
cat a.pcapng b.pcapng > ab.pcapng
cat b.pcapng a.pcapng > ba.pcapng
gzip -c ab.pcapng > ab.pcapng.gz
for f in ab.pcapng ab.pcapng.gz ba.pcapng; do
	# Records of one time come in the order of the file.
	[ $f = ba.pcapng ] && gpumem-read -q b.csv a.csv > want.csv
	gpumem-read $f > got.csv || die "$f: exit $?"
	cmp -s want.csv got.csv || die "$f: $(diff want.csv got.csv | head -5)"
done
size=$(wc -c < ab.pcapng)
head -c $((size - 100)) ab.pcapng > cut.pcapng
rc=0; gpumem-read cut.pcapng > got.csv || rc=$?
echo "exit $rc"
n=$(nrec got.csv)
[ "$n" -gt 180 ] || die "only $n records before the cut"
