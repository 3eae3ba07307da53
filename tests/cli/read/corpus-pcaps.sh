# Every capture of tests/corpus (44 link types, truncated and corrupt
# files among them): no crash, no sanitizer report (the suite runs this on
# the ASan+UBSan build too), exit 0 with a summary line, or exit 2 with a
# one-line reason (after the packets it names).  The multi-interface
# pcapng files libpcap refuses (MANIFEST.tsv says which) are read to their
# end by gpumem's own reader.
. "$TESTS/lib.sh"
need_corpus pcaps
d=$CORPUS/pcaps
n=0 fails=0
for f in "$d"/*; do
	b=$(basename "$f")
	[ "$b" = MANIFEST.tsv ] && continue
	n=$((n + 1))
	rc=0; gpumem-read "$f" > out.csv 2> err.txt || rc=$?
	# Every line on stderr is ours; all but the summary say why.
	grep -v "^gpumem-read: " err.txt > other.txt || :
	! [ -s other.txt ] || die "$b: exit $rc: $(head -n 5 other.txt)"
	head -n 1 out.csv | grep -q '^timestamp,' || [ ! -s out.csv ] ||
		die "$b: no record stream on stdout"
	reasons=$(grep -v -c "^gpumem-read: $f: [0-9]* records (" err.txt || :)
	case $rc in
	0)	grep -q "^gpumem-read: $f: [0-9]* records (" err.txt ||
			die "$b: exit 0 without a summary: $(cat err.txt)"
		expect_eq "$b: lines beyond the summary" "$reasons" 0 ;;
	2)	# One reason for the file; before it, what was wrong with a
		# packet, named by its number (a tunnel header cut short).
		whole=$(grep -v -e "^gpumem-read: $f: [0-9]* records (" \
		    -e "^gpumem-read: $f: packet [0-9]" err.txt | wc -l)
		expect_eq "$b: lines giving the reason" "$whole" 1 ;;
	*)	die "$b: exit $rc: $(head -n 5 err.txt)" ;;
	esac
done
[ $n -ge 190 ] || die "only $n captures"
# The files libpcap refuses after an interface or section it does not
# take (different link type, snapshot length or byte order), with the
# packets tshark counts in them.
awk -F '\t' '$9 ~ /different from the/ { print $1 }' "$d/MANIFEST.tsv" |
	sort > refused.txt
expect_eq "refused files" "$(wc -l < refused.txt | tr -d ' ')" 10
while read -r b packets; do
	grep -qx "$b" refused.txt || die "$b is not listed as refused"
	gpumem-read "$d/$b" > out.csv 2> err.txt || die "$b: exit $?"
	# Every packet is read: by our block reader after libpcap stopped,
	# or by libpcap itself where only the snapshot lengths differed
	# (gpumem lifts them in the bytes libpcap reads).
	grep -q "^gpumem-read: $d/$b: 0 records (pcapng capture, [a-zA-Z ]*: $packets packets\?, 0 GMEM frames: no GMEM telemetry found\(; libpcap stopped after packet [0-9]* (an interface has a [a-z ]* [0-9]* different from the [a-z ]* of the first interface), gpumem's pcapng reader read on\)\?)" err.txt ||
		die "$b: $(cat err.txt)"
done <<'LIST'
gap-data-missing.pcapng 18
pcapng-test-generator_be_test006.pcapng 5
pcapng-test-generator_be_test202.pcapng 8
pcapng-test-generator_le_test004.pcapng 4
pcapng-test-generator_le_test006.pcapng 5
pcapng-test-generator_le_test008.pcapng 4
pcapng-test-generator_le_test014.pcapng 0
pcapng-test-generator_le_test102.pcapng 5
pcapng-test-generator_le_test200.pcapng 0
pcapng-test-generator_le_test202.pcapng 8
LIST
