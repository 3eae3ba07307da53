# Without gnuplot, plot and gantt say so in one line naming the
# package and exit 2, before reading their input; --script and --text
# still work (report writes its page without charts: cli/report/no-gnuplot).
. "$TESTS/lib.sh"
gpumem-synth -s leak > leak.csv
mkdir empty
nogp() { PATH=$PWD/empty "$GPUMEM_BIN/$@"; }
want="install the Debian package gnuplot-nox"
for tool in gpumem-plot gpumem-gantt; do
	rc=0; nogp $tool -o out.png leak.csv > out.txt 2> err.txt || rc=$?
	expect_eq "$tool: exit" $rc 2
	expect_eq "$tool: message" "$(cat err.txt)" "$tool: gnuplot is not installed: $want"
	! [ -s out.txt ] || die "$tool wrote to stdout"
	! [ -e out.png ] || die "$tool left out.png"
done
nogp gpumem-plot --script leak.csv > plot.gp || die "plot --script: exit $?"
grep -q '^plot ' plot.gp || die "plot --script wrote no plot"
nogp gpumem-gantt --script leak.csv > gantt.gp || die "gantt --script: exit $?"
grep -q '^plot \$life' gantt.gp || die "gantt --script wrote no plot"
nogp gpumem-gantt --text --width 80 leak.csv > gantt.txt || die "gantt --text: exit $?"
grep -q 'LEAKED 11.0 GiB' gantt.txt || die "gantt --text: $(cat gantt.txt)"
exit 0
