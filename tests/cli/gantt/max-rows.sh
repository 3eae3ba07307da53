# A long log has many tasks: --max-rows keeps the chart readable, keeps
# the leaks and the longest delays, and says how many tasks are not shown.
. "$TESTS/lib.sh"
gpumem-synth -s random --interval 1s --duration 2h > random.csv
gpumem-tasks -q random.csv > tasks.csv
n=$(nrec tasks.csv)
[ "$n" -gt 60 ] || die "only $n tasks"
leaks=$(grep -c ',leaked,' tasks.csv || :)
# Room for every leak and five more: the longest delays.
rows=$((leaks + 5))
gpumem-gantt --text --width 120 --max-rows $rows tasks.csv > g.txt || die "exit $?"
expect_eq "rows" "$(grep -c '│' g.txt)" $rows
grep -q "^($((n - rows)) more tasks not shown: see --max-rows)$" g.txt || die "no note: $(tail -n 2 g.txt)"
expect_eq "leaks shown" "$(grep -c 'LEAKED' g.txt)" "$leaks"
# The longest delay is among them.
max=$(awk -F, 'NR > 1 && $12 == "released" && $10 + 0 > m { m = $10 + 0 } END { print m }' tasks.csv)
grep -q "│ $max s ±1 s$" g.txt || die "the longest delay ($max s) is not shown"
# The default is 50 rows, the graphical chart says it too.
gpumem-gantt --script tasks.csv > g.gp || die "exit $?"
grep -q "($((n - 50)) more tasks not shown)" g.gp || die "the title does not say it"
expect_eq "rows drawn" "$(sed -n '/^\$life << EOD$/,/^EOD$/p' g.gp | grep -c '^[0-9]')" 50
exit 0
