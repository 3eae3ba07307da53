# A partial leak shows both parts: of the 8 GiB the partial-leak scenario
# holds, 2 GiB never come back and 6 GiB come back late (held - leaked,
# from the synthetic truth).  The report's leak list and table, the Gantt
# chart (script and text) and the list of the usage chart's marks say both.
. "$TESTS/lib.sh"
gpumem-synth -s partial-leak --truth truth.csv > pl.csv
set -- $(awk -F, 'NR == 2 { printf "%.1f %.1f %.1f", $8 / 1024, $11 / 1024, ($8 - $11) / 1024 }' truth.csv)
held="$1 GiB" leaked="$2 GiB" back="$3 GiB"
expect_eq "truth" "$held $leaked $back" "8.0 GiB 2.0 GiB 6.0 GiB"
mkdir empty
PATH=$PWD/empty "$GPUMEM_BIN/gpumem-report" -q --utc pl.csv > r.html || die "report: exit $?"
grep -q "^<li><b>gpu0 5001 trainer</b>: held $held: $leaked never came back, $back came back late (ended 00:00:30)</li>" r.html ||
	die "leak list: $(grep '^<li>' r.html)"
grep -q "<td class=\"n\" data-v=\"\">$back back late</td><td class=\"n\" data-v=\"2048\">$leaked</td>" r.html ||
	die "table: $(grep '^<tr class' r.html)"
gpumem-gantt --script pl.csv | grep -q "^0 [0-9.]* \"leaked $leaked, $back back late\"$" ||
	die "gantt script"
gpumem-gantt --text --width 100 pl.csv | grep -q "LEAKED $leaked, $back late$" ||
	die "gantt text: $(gpumem-gantt --text --width 100 pl.csv)"
gpumem-plot --script pl.csv 2>&1 > /dev/null | grep -q "^gpumem-plot: mark 1 at 00:00:30: gpu0 5001 trainer: $leaked never came back, $back came back late$" ||
	die "plot's list of marks"
# A whole leak says one part only.
gpumem-synth -s leak | gpumem-report -q > l.html
grep -q '^<li><b>gpu0 [0-9]* [^<]*</b>: 11.0 GiB never came back (ended' l.html ||
	die "whole leak: $(grep '^<li>' l.html)"
exit 0
