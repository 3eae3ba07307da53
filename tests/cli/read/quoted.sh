# Names that need quoting survive a round trip, line breaks included.
. "$TESTS/lib.sh"
printf '%s\n' 'timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name' \
	'1,"host, with comma",0,7,1,,,"name ""quoted"""' \
	'2,h,0,8,1,,,"two' 'lines"' '3,h,1,0,1,2,3,' > s.csv
gpumem-read -q s.csv > out.csv
cmp s.csv out.csv || die "differs: $(cat out.csv)"
printf '4,h,0,9,1,,,"never closed\n' >> s.csv
gpumem-read s.csv > /dev/null 2> err.txt
expect_eq "unclosed quote" "$(cat err.txt)" "gpumem-read: s.csv:6: quoted field opened on line 6 never closes
gpumem-read: s.csv: 3 records (gpumem record stream); skipped 1: 1 unreadable"
# A quote that never closes in the middle of a stream swallows no more
# than a record can span: the lines after it are read again, not lost.
{
	head -n 1 s.csv
	printf '1,h,0,7,1,,,a\n5,h,0,9,1,,,"never closed\n'
	awk 'BEGIN { for (i = 6; i < 1006; i++) printf "%d,h,0,%d,1,,,%s\n", i, i, "name-of-some-length-to-fill-the-bytes" }'
} > mid.csv
gpumem-read mid.csv > /dev/null 2> err.txt
expect_eq "unclosed quote in the middle" "$(cat err.txt)" "gpumem-read: mid.csv:315: quoted field opened on line 3 never closes
gpumem-read: mid.csv: 1001 records (gpumem record stream); skipped 1: 1 unreadable"
