# An over-long last line without a newline (a log cut by a crash or a full
# disk) is one line skipped, read once: its tail is no line of its own,
# even when it looks like a record, and records + skipped = lines.
. "$TESTS/lib.sh"
{
	printf 'timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name\n'
	printf '1,h,0,7,5,,,a\n'
	# 1 MiB + 1 bytes of x, then a crafted tail: at whatever size the
	# reader drops the long line in, the tail must go with it.
	head -c 1048577 /dev/zero | tr '\0' x
	printf '2,h,0,9,7,,,evil'
} > long.csv
gpumem-read -v long.csv > out.csv 2> err.txt
cat out.csv err.txt
! grep -q evil out.csv || die "the tail of the long line became a record"
# Lines after the header: 2; records + skipped must say the same.
expect_eq "records + skipped" \
	"$(sed -n 's/.*: \([0-9]*\) records .*skipped \([0-9]*\):.*/\1 + \2/p' err.txt)" \
	"1 + 1"
# The same in every size of tail, up to one byte, and gzip-compressed.
for n in 1 2 1000 1048575; do
	{ head -c 1048577 /dev/zero | tr '\0' x; head -c "$n" /dev/zero | tr '\0' 7; } > t.csv
	gzip -c t.csv > t.csv.gz
	for f in t.csv t.csv.gz; do
		gpumem-read --format stream "$f" > o.csv 2> e.txt || :
		expect_eq "$f tail $n" "$(tail -n +2 o.csv | wc -l | tr -d ' ') $(grep -c 'longer than' e.txt)" "0 1"
	done
done
