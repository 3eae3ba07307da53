# Logs rotated by logrotate come gzip-, zstd-, xz- or bzip2-compressed:
# gpumem reads each, told by content, each file made by the compressor's
# own tool, and gives the records of the plain file, byte for byte.
# Members joined by cat (and pzstd's skippable frames) are one input; a
# cut file keeps every record before the cut and exits 2; bytes after the
# last member are trailing garbage.  What gpumem does not read (lz4, a
# compression inside another) is named, with the command that reads it.
. "$TESTS/lib.sh"
for tool in zstd xz bzip2 lz4; do
	command -v $tool > /dev/null || skip "$tool is not installed"
done
gpumem-synth -s demo -o d.csv
gpumem-synth -s random --seed 7 --gpus 4 --duration 30min -o big.csv
nbig=$(nrec big.csv)
# The plain file read as it is: what every compressed copy must give.
gpumem-read -q big.csv > want.csv

zip() {		# zip TOOL < plain > compressed, as a user runs each
	case $1 in
	gzip) gzip -nc ;;
	zstd) zstd -q -c ;;
	xz) xz -c ;;
	bzip2) bzip2 -1 -c ;;	# blocks of 100 kB: a cut file keeps some
	esac
}

for z in gzip zstd xz bzip2; do
	zip $z < big.csv > big.$z
	# By content: the name says nothing.
	gpumem-read big.$z > got.csv 2> err
	cmp want.csv got.csv || die "$z: records differ"
	expect_eq "$z: summary" "$(cat err)" \
	    "gpumem-read: big.$z: $nbig records (gpumem record stream)"
	# Standard input too.
	gpumem-read -q - < big.$z | cmp want.csv - || die "$z: stdin differs"

	# Two members joined by cat: the records of both.
	zip $z < d.csv > d.$z
	cat d.$z d.$z > twice.$z
	# (d.csv's clock read twice steps back: said twice.)
	gpumem-read -q twice.$z > got.csv 2> err
	expect_eq "$z: clock steps said" "$(grep -c 'clock steps back' err)" 2
	expect_eq "$z: records of two members" "$(nrec got.csv)" \
	    $((2 * $(nrec d.csv)))

	# Cut in the middle: every record before the cut, in order, then
	# the reason and exit 2.
	size=$(wc -c < big.$z)
	head -c $((size / 2)) big.$z > cut.$z
	rc=0; gpumem-read cut.$z > got.csv 2> err || rc=$?
	expect_eq "$z: exit status of a cut file" $rc 2
	n=$(nrec got.csv)
	[ "$n" -gt 1000 ] && [ "$n" -lt "$nbig" ] || die "$z: kept $n records"
	head -n "$((n + 1))" want.csv | cmp - got.csv ||
	    die "$z: records before the cut differ"
	grep -q "^gpumem-read: cut.$z: unexpected end of $z data (truncated file?) after [0-9]* bytes$" err ||
	    die "$z: no message for the cut: $(cat err)"

	# Trailing garbage, named with its offset; the records are kept.
	{ cat d.$z; printf 'junk\n'; } > junk.$z
	rc=0; gpumem-read junk.$z > got.csv 2> err || rc=$?
	expect_eq "$z: trailing garbage: exit" $rc 2
	cmp d.csv got.csv || die "$z: trailing garbage: records lost"
	expect_eq "$z: trailing garbage: message" "$(head -n 1 err)" \
	    "gpumem-read: junk.$z: trailing garbage after $z data at byte $(wc -c < d.$z)"
done

# xz allows zero padding (four bytes at a time) between streams; xz
# itself reads such a file, and so does gpumem.
{ cat d.xz; printf '\0\0\0\0\0\0\0\0'; cat d.xz; } > padded.xz
xz -dc padded.xz > /dev/null || die "xz refuses its own padding"
gpumem-read -q padded.xz > got.csv 2> /dev/null
expect_eq "xz: records around padding" $(nrec got.csv) $((2 * $(nrec d.csv)))

# pzstd writes each frame behind a skippable frame: still zstd.
if command -v pzstd > /dev/null; then
	pzstd -q -p 2 -c big.csv > big.pzst
	gpumem-read -q big.pzst | cmp want.csv - || die "pzstd: records differ"
fi

# A capture compressed is read as the capture is (libpcap reads the
# decompressed bytes).
gpumem-pcap -q -o c.pcap d.csv
gpumem-read -q c.pcap > want-cap.csv
for z in zstd xz bzip2; do
	zip $z < c.pcap > c.pcap.$z
	gpumem-read -q c.pcap.$z | cmp want-cap.csv - ||
	    die "$z: capture records differ"
done

# A corrupt xz member is named as such, with its offset.
xz -c d.csv > d.xz
size=$(wc -c < d.xz)
head -c $((size - 40)) d.xz > bad.xz
printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' >> bad.xz
rc=0; gpumem-read bad.xz > /dev/null 2> err || rc=$?
expect_eq "xz: corrupt: exit" $rc 2
grep -q "^gpumem-read: bad.xz: corrupt xz data near byte [0-9]*$" err ||
    die "xz: corrupt: $(cat err)"

# Headers that ask for more memory than --mem-budget: mem-budget.sh.

# What gpumem does not read, one message and exit 2 each.
lz4 -q -c d.csv > d.csv.lz4
gzip -nc d.csv | gzip -nc > twice.gz
zstd -q -c d.csv | gzip -nc > zst.gz
lz4 -q -c d.csv | xz -c > lz4.xz
for f in d.csv.lz4 twice.gz zst.gz lz4.xz; do
	rc=0; gpumem-read "$f" > /dev/null || rc=$?
	echo "exit $rc"
done
# What the messages say to run reads it.
gzip -dc twice.gz | gpumem-read -q - | cmp - d.csv
gzip -dc zst.gz | gpumem-read -q - | cmp - d.csv
xz -dc lz4.xz | lz4 -dc | gpumem-read -q - | cmp - d.csv
