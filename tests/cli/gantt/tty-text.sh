# gantt without -o: on a terminal (script(1) gives one) the text chart,
# as --text draws it (gnuplot's dumb terminal garbles a Gantt chart); into
# a pipe a PNG, as before; -T dumb still asks gnuplot.
. "$TESTS/lib.sh"
command -v script > /dev/null || skip "script (util-linux) is absent"
gpumem-synth -s demo | gpumem-tasks -q > t.csv
script -qec "gpumem-gantt t.csv" /dev/null > tty.txt < /dev/null
script -qec "gpumem-gantt --text t.csv" /dev/null > want.txt < /dev/null
cmp -s tty.txt want.txt || die "not the text chart: $(head -n 3 tty.txt)"
grep -q "one column = " tty.txt || die "no text chart: $(head -n 3 tty.txt)"
if command -v gnuplot > /dev/null; then
	gpumem-gantt t.csv | head -c 4 | od -An -c | tr -d ' ' > magic.txt
	expect_eq "a pipe" "$(cat magic.txt)" '211PNG'
	script -qec "gpumem-gantt -T dumb t.csv" /dev/null > dumb.txt < /dev/null
	! cmp -s dumb.txt want.txt || die "-T dumb drew the text chart"
fi
