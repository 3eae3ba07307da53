# -o replaces a file with one of the same mode: a private (0600) report
# stays private, whichever tool writes it; a new file gets 0666 less the
# umask; set-id bits are not carried over.  As root the owner and group
# are kept too.  Modes are read with stat(1).
. "$TESTS/lib.sh"
umask 022
gpumem-synth -s demo > demo.csv
mode() {
	stat -c %a "$1"
}

for t in read tasks usage; do
	: > $t.out
	chmod 600 $t.out
	gpumem-$t -q -o $t.out demo.csv || die "$t: exit $?"
	expect_eq "$t: mode of the replaced file" "$(mode $t.out)" 600
	[ -s $t.out ] || die "$t: $t.out is empty"
done
: > check.json
chmod 640 check.json
gpumem-check -q --json check.json demo.csv 2>/dev/null || :
expect_eq "check --json: mode" "$(mode check.json)" 640
if command -v gnuplot >/dev/null; then
	: > chart.svg
	chmod 604 chart.svg
	gpumem-plot -q -o chart.svg demo.csv || die "plot: exit $?"
	expect_eq "plot: mode" "$(mode chart.svg)" 604
fi
# A new file: 0666 less the umask.
gpumem-tasks -q -o new.csv demo.csv || die "new: exit $?"
expect_eq "new file: mode" "$(mode new.csv)" 644
# No set-id bit on a report.
: > suid.csv
chmod 4755 suid.csv
gpumem-tasks -q -o suid.csv demo.csv || die "suid: exit $?"
expect_eq "set-uid file: mode" "$(mode suid.csv)" 755
# As root, the owner and the group stay.
if [ "$(id -u)" -eq 0 ]; then
	: > owned.csv
	chown 65534:65534 owned.csv
	chmod 600 owned.csv
	gpumem-tasks -q -o owned.csv demo.csv || die "owned: exit $?"
	expect_eq "owner" "$(stat -c %u:%g owned.csv)" 65534:65534
	expect_eq "owned: mode" "$(mode owned.csv)" 600
fi
ls -a | grep -q '\.tmp' && die "a temporary file was left"
exit 0
