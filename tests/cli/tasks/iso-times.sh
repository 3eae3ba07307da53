# --iso-times: start_time, end_time and release_time after the table's
# columns, as date(1) writes the times in UTC, whatever the zone; check
# and gantt read the table back.
. "$TESTS/lib.sh"
export TZ=Asia/Tokyo
gpumem-synth -s demo > demo.csv
gpumem-tasks -q --iso-times demo.csv > t.csv
gpumem-tasks -q demo.csv > plain.csv
head -n 1 t.csv
iso() {
	[ -n "$1" ] || return 0
	date -u -d "@$(($1 / 1000000000))" +%Y-%m-%dT%H:%M:%S.000Z
}
tail -n +2 t.csv | awk -F, '{ print $5 "|" $6 "|" $9 "|" $16 "," $17 "," $18 }' |
while IFS='|' read -r s e r got; do
	expect_eq "times of $s" "$got" "$(iso $s),$(iso $e),$(iso $r)"
done
expect_eq "the rest" "$(cut -d, -f1-15 t.csv | tail -n +2)" \
    "$(tail -n +2 plain.csv)"
# Read back: the same verdict as the plain table.
rc1=0; gpumem-check -q t.csv 2> a.err || rc1=$?
rc2=0; gpumem-check -q plain.csv 2> b.err || rc2=$?
expect_eq "check exit" $rc1 $rc2
cmp -s a.err b.err || die "check of --iso-times differs"
gpumem-gantt --text t.csv > a.txt
gpumem-gantt --text plain.csv > b.txt
cmp -s a.txt b.txt || die "gantt of --iso-times differs"
