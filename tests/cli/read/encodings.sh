# Encodings as Windows and editors write them: UTF-16LE with a BOM and
# CRLF (PowerShell 5's `nvidia-smi ... > log.csv`), UTF-16 as iconv writes
# it, UTF-16BE, both without a BOM, gzip-compressed; a UTF-8 BOM before a
# date line, a header, our own record stream, and files joined with cat.
# The records must be exactly those of the UTF-8 file.
. "$TESTS/lib.sh"
gpumem-synth -s demo -n nv
q=nv/query-gpu.csv
a=nv/compute-apps.csv
# Names beyond ASCII, one beyond the BMP (a surrogate pair in UTF-16).
sed 's/python3 train.py/python3 tränen-日本-😀.py/' $a > apps.csv
gpumem-read -q $q > q.want
gpumem-read -q apps.csv > a.want
grep -q 'tränen-日本-😀' a.want || die "the UTF-8 name is not in the records"

crlf() {
	sed 's/$/\r/' "$1"
}
{ printf '\377\376'; crlf $q | iconv -f UTF-8 -t UTF-16LE; } > ps5.csv
{ printf '\377\376'; crlf apps.csv | iconv -f UTF-8 -t UTF-16LE; } > ps5-apps.csv
iconv -f UTF-8 -t UTF-16 $q > iconv16.csv
{ printf '\376\377'; iconv -f UTF-8 -t UTF-16BE apps.csv; } > be-apps.csv
iconv -f UTF-8 -t UTF-16LE $q > le-nobom.csv
iconv -f UTF-8 -t UTF-16BE apps.csv > be-nobom.csv
gzip -c ps5.csv > ps5.csv.gz
head -c 2 iconv16.csv | od -An -tx1 | grep -q 'ff fe' || die "iconv wrote no little-endian BOM"

for f in ps5.csv iconv16.csv le-nobom.csv ps5.csv.gz; do
	gpumem-read -q $f > got || die "$f: exit $?"
	cmp -s got q.want || die "$f: records differ from the UTF-8 file"
done
for f in ps5-apps.csv be-apps.csv be-nobom.csv; do
	gpumem-read -q $f > got || die "$f: exit $?"
	cmp -s got a.want || die "$f: records differ from the UTF-8 file"
done
# The summary says what was decoded.
gpumem-read ps5.csv be-nobom.csv > /dev/null

# A UTF-8 BOM before a table's date line; before the stream's header;
# two files with their BOMs joined with cat.
# The table of the project's fixture of two driver layouts.
table2019_log > t.log
gpumem-read -q t.log > t.want
{ printf '\357\273\277'; cat t.log; } > bom-t.log
gpumem-read -q bom-t.log > got || die "BOM before a date line: exit $?"
cmp -s got t.want || die "BOM before a date line: records differ"
crlf bom-t.log | iconv -f UTF-8 -t UTF-16LE > ps5-t.log
gpumem-read -q ps5-t.log > got || die "a table in UTF-16: exit $?"
cmp -s got t.want || die "a table in UTF-16: records differ"
{ printf '\357\273\277'; cat q.want; } > bom-stream.csv
gpumem-read -q bom-stream.csv > got || die "BOM before the stream: exit $?"
cmp -s got q.want || die "BOM before the stream: records differ"
head -n 241 $q > part1.csv
{ head -n 1 $q; tail -n +242 $q; } > part2.csv
for f in part1.csv part2.csv; do
	{ printf '\357\273\277'; cat $f; } > bom-$f
done
cat bom-part1.csv bom-part2.csv > joined.csv
gpumem-read -q joined.csv > got || die "joined: exit $?"
cmp -s got q.want || die "files with BOMs joined with cat: records differ"
