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
