# plot, gantt and report take the directory gpumem record writes, as read,
# tasks and check do: the same output as its log files named one by one.
. "$TESTS/lib.sh"
gpumem synth -s slow-release -n run -t truth.csv
printf 'command: python3 train.py\n' > run/meta
gpumem gantt --text run > dir.txt
gpumem gantt --text run/query-gpu.csv run/compute-apps.csv > files.txt
cmp -s dir.txt files.txt || die "gantt --text: $(diff files.txt dir.txt)"
# The three tasks of the truth are drawn.
expect_eq "gantt rows" "$(grep -c '│' dir.txt)" "$(tail -n +2 truth.csv | wc -l | tr -d ' ')"
if command -v gnuplot > /dev/null; then
	gpumem plot -o dir.svg run
	gpumem plot -o files.svg run/query-gpu.csv run/compute-apps.csv
	cmp -s dir.svg files.svg || die "plot: the directory's chart differs"
	gpumem gantt -o dir.svg run
	gpumem gantt -o files.svg run/query-gpu.csv run/compute-apps.csv
	cmp -s dir.svg files.svg || die "gantt: the directory's chart differs"
fi
gpumem report -o dir.html run 2> dir.err
gpumem report -o files.html run/query-gpu.csv run/compute-apps.csv 2> files.err
# The same page but for the line that names the inputs.
grep -v 'class="meta"' dir.html > dir.body
grep -v 'class="meta"' files.html > files.body
cmp -s dir.body files.body || die "report: the directory's page differs"
grep -q 'class="meta">.* from run</p>' dir.html || die "report: inputs not named"
cat dir.err
