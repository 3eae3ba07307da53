# Without gnuplot the report is still written: the headline, the lists
# and the task table, no chart, a line at the top of the page saying the
# charts need gnuplot, and one warning (none with -q); exit 0.
. "$TESTS/lib.sh"
gpumem-synth -s demo > demo.csv
mkdir empty
nogp() { PATH=$PWD/empty "$GPUMEM_BIN/$@"; }
nogp gpumem-report -o r.html demo.csv 2> err.txt || die "exit $?"
expect_eq "warning" "$(cat err.txt)" "gpumem-report: gnuplot is not installed: install the Debian package gnuplot-nox: the report has no charts
gpumem-report: r.html: 2 GPUs, 4 tasks, 1 leaked"
grep -q '^<p class="warn">gnuplot is not installed: install the Debian package gnuplot-nox: the charts need it' r.html ||
	die "the page does not say why it has no charts"
expect_eq "charts" "$(grep -c '<svg' r.html)" 0
expect_eq "no-chart notes" "$(grep -c '<p class="note nocharts">' r.html)" 2
grep -q '<div class="num">1</div><div class="lbl">leaks</div>' r.html || die "no headline"
grep -q '^<h2>Leaks: memory that never came back' r.html || die "no leak list"
grep -q '^<h2>Worst release delays' r.html || die "no delay list"
expect_eq "table rows" "$(grep -c '^<tr class=' r.html)" 4
nogp gpumem-report -q demo.csv > q.html 2> err.txt || die "-q: exit $?"
! [ -s err.txt ] || die "-q: $(cat err.txt)"
cmp -s r.html q.html || die "-o and stdout differ"
exit 0
