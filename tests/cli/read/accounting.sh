# Nothing is lost silently: for every damaged input, the summary line of
# gpumem read -v accounts for every line of it,
#   records + skipped + headers (+ pid 0 rows merged) = lines,
# lines counted by wc -l (one more for a last line without a newline, or
# for gzip, of what gzip -dc gives).  Damage is made with the tools that
# make it in life: sed, awk, head -c (a crash, a full disk), printf, cat,
# gzip.
. "$TESTS/lib.sh"
gpumem-synth -s demo --nvsmi nv
gpumem-synth -s demo -o s.csv
Q=nv/query-gpu.csv A=nv/compute-apps.csv
long() { head -c 1100000 /dev/zero | tr '\0' x; }

sed '5s/ MiB, / MiB, x/; 9s/, 1,/, one,/; 13s/2026/2O26/' $Q > bad-fields.csv
awk 'NR % 11 == 0 { print substr($0, 1, 30); next } { print }' $Q > short-rows.csv
awk 'NR == 20 { print "hello"; print "#!"; print "" } { print }' $Q > garbage.csv
{ head -n 40 $Q; printf '\0\0\0\0\0\0\0\0\n'; tail -n +41 $Q; } > nuls.csv
{ head -n 40 $Q; long; echo; tail -n +41 $Q; } > long-middle.csv
{ cat $Q; long; } > long-last.csv
{ cat $Q; long; printf '2026/01/01 00:09:00.000, 0, x, y, 1 MiB, 1 MiB, 1 MiB, 1 MiB'; } > long-tail.csv
head -c -7 $Q > cut-number.csv
head -c -40 $Q > cut-row.csv
{ head -n 100 $Q; head -n 1 $Q; tail -n +101 $Q; } > header-again.csv
sed '2s/2026\/01\/01/2026\/13\/01/' $Q > bad-date.csv
sed '30s/, 1, /, 1, /; 30s/00:00:/00:9:/' $Q > bad-time.csv
awk -F', ' -v OFS=', ' 'NR == 60 { $4 = "x" $4 } NR == 70 { $6 = "9#9 MiB" } { print }' $A > apps-bad.csv
awk -F', ' -v OFS=', ' 'NR > 1 && NR % 3 == 0 { $4 = 0 } { print }' $A > apps-pid0.csv
head -c -5 $A > apps-cut.csv
awk 'NR == 50 { print "1,h,0,7,bad,,,x" } NR == 51 { print "2,h,0,7,1,,,\"open" } { print }' s.csv > stream-bad.csv
head -c -3 s.csv > stream-cut.csv
gzip -c $Q > q.csv.gz
head -c $(($(wc -c < q.csv.gz) / 2)) q.csv.gz > trunc.csv.gz

# count FILE: lines as the reader should account for them.
count() {
	case $1 in
	*.gz) gzip -dc "$1" 2>/dev/null > plain.txt || : ;;
	*) cat "$1" > plain.txt ;;
	esac
	n=$(wc -l < plain.txt)
	[ ! -s plain.txt ] || [ "$(tail -c 1 plain.txt | od -An -c | tr -d ' ')" = '\n' ] ||
		n=$((n + 1))
	echo $n
}
for f in bad-fields.csv short-rows.csv garbage.csv nuls.csv long-middle.csv \
    long-last.csv long-tail.csv cut-number.csv cut-row.csv header-again.csv \
    bad-date.csv bad-time.csv apps-bad.csv apps-pid0.csv apps-cut.csv \
    stream-bad.csv stream-cut.csv trunc.csv.gz; do
	gpumem-read -v "$f" > /dev/null 2> err.txt || :
	sum=$(grep "^gpumem-read: $f: [0-9]* records" err.txt) ||
		die "$f: no summary line: $(cat err.txt)"
	recs=$(echo "$sum" | sed 's/^[^:]*: [^:]*: \([0-9]*\) records.*/\1/')
	skipped=$(echo "$sum" | sed -n 's/.*; skipped \([0-9]*\):.*/\1/p')
	again=$(echo "$sum" | sed -n 's/.*, \([0-9]*\) repeated headers.*/\1/p')
	zrows=$(echo "$sum" | sed -n 's/.*, \([0-9]*\) rows of pid 0 read as \([0-9]*\) records.*/\1 - \2/p')
	lines=$(count "$f")
	# Lines that are neither records nor damage: blank lines and the
	# comment line of garbage.csv are passed over in silence or counted
	# as skipped; the first header is the log's own.
	blank=$(awk '/^\r?$/ { n++ } END { print n + 0 }' plain.txt)
	got=$((recs + ${skipped:-0} + 1 + ${again:-0} + ${zrows:-0} + blank))
	echo "$f: $recs records + ${skipped:-0} skipped + 1 header + ${again:-0} again + (${zrows:-0}) pid 0 merged + $blank blank = $got; lines $lines"
	[ "$got" -eq "$lines" ] || die "$f: the summary accounts for $got of $lines lines: $sum"
done
