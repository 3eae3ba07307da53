# A report over three days dates its times: the leaks and the worst
# delays say the day as well as the time (a clock alone is ambiguous),
# and the dates are those of the synthetic truth, made into dates by
# date(1).  A report within one day shows clocks only (tolerance.sh).
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
gpumem-synth -s random --duration 3d --gpus 1 --interval 10m --seed 3 \
    --truth truth.csv > r.csv
gpumem-report -q --utc r.csv > r.html
grep '^<li>' r.html
# The most leaked task's end, from the truth.
end=$(awk -F, 'NR > 1 && $12 == "leaked" { print $11, $6 }' truth.csv |
    sort -rn | head -n 1 | cut -d ' ' -f 2)
want=$(date -u -d "@$((end / 1000000000))" '+%Y-%m-%d %H:%M:%S')
grep -q "^<li>.*never came back (ended $want)" r.html ||
	die "the first leak's end is not dated $want"
