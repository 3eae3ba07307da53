# Logs named like options ("-n1.rec", "--help.rec") stay logs all the way
# through contrib/parallel/gpumem-fleet (map on local cores and reduce:
# each gpumem call puts -- before the names): the reduced task table is
# that of the logs read at once.
. "$TESTS/lib.sh"
command -v parallel > /dev/null || skip "skipped: parallel is not installed"
fleet="$TESTS/../contrib/parallel/gpumem-fleet"
GPUMEM=$(command -v gpumem)
export GPUMEM
gpumem-synth -s demo --host node1 --seed 1 -o ./-n1.rec
gpumem-synth -s leak --host node2 -o ./--help.rec
gpumem-tasks -q -- -n1.rec --help.rec > all.csv
rc=0
sh "$fleet" -j 2 -o out -- -n1.rec --help.rec 2> err.txt || rc=$?
expect_eq "exit" $rc 1
{ head -n 1 all.csv; tail -n +2 all.csv | sort; } > want.csv
{ head -n 1 out/tasks.csv; tail -n +2 out/tasks.csv | sort; } > got.csv
cmp want.csv got.csv || die "task table differs: $(diff want.csv got.csv | head -5)"
[ -s out/report.html ] || die "no report: $(cat err.txt)"
