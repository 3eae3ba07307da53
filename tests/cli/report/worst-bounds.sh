# The report's worst delays say the bounds the data allows, as the task
# table does: a device-only log (synth -s slow-release, query-gpu alone)
# gives episodes whose release is known to the sample but whose end is
# not (no process listed): "1 s (0–19 s)", never "1 s ±1 s".
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
gpumem-synth -s slow-release --nvsmi sr
gpumem-report -q --utc -o sr.html sr/query-gpu.csv
grep '^<li>.*memory held' sr.html
