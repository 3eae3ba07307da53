# The HTML report of the demo's nvidia-smi logs: self-contained (nothing
# fetched: no src, no link, no URL but the SVG namespaces), the headline
# numbers, a usage chart and a Gantt chart per GPU as inline SVG that
# parses, unique ids, and the task table with every task.
. "$TESTS/lib.sh"
gpumem-synth -s demo --nvsmi logs --truth truth.csv
gpumem-report -q -o report.html logs/query-gpu.csv logs/compute-apps.csv || die "exit $?"
head -n 1 report.html | grep -q '^<!DOCTYPE html>$' || die "not HTML"
! grep -Eiq '<(link|img|iframe|object)[ >]|src=|@import' report.html || die "refers to an external file"
urls=$(grep -Eo '(https?|ftp)://[^"'"'"' )]*' report.html | sort -u | tr '\n' ' ')
expect_eq "URLs" "$urls" "http://www.w3.org/1999/xlink http://www.w3.org/2000/svg "
# Headline: 4 tasks, 1 leak of 11.0 GiB, delays 0, 2 and 25 s at 1 s.
grep -q '<div class="num">4</div><div class="lbl">tasks</div>' report.html || die "no task count"
grep -q '<div class="num">1</div><div class="lbl">leaks</div><div class="sub">11.0 GiB never came back' report.html || die "no leak count"
grep -q '<div class="num">2 s</div><div class="lbl">p50 delay</div><div class="sub">±1 s, of 3 released' report.html || die "no p50"
grep -q '<div class="num">25 s</div><div class="lbl">p95 delay</div>' report.html || die "no p95"
grep -q '<div class="num">25 s</div><div class="lbl">max delay</div>' report.html || die "no max"
# Charts: 2 GPUs, a usage and a Gantt chart each, every one well-formed.
expect_eq "charts" "$(grep -c '^<figure class="chart' report.html)" 4
expect_eq "usage charts" "$(grep -c '^<figure class="chart usage"' report.html)" 2
awk '/^<svg/ { n++; f = "chart" n ".svg" } f { print > f } /^<\/svg>/ { f = "" }' report.html
for f in chart1.svg chart2.svg chart3.svg chart4.svg; do
	[ -s $f ] || die "$f missing"
	if command -v xmllint >/dev/null; then
		xmllint --noout $f || die "$f is not well-formed"
	fi
done
dups=$(grep -o ' id=.[^"'"'"']*' report.html | sort | uniq -d | head -n 3)
[ -z "$dups" ] || die "ids are not unique: $dups"
# The table: one row per task, leaked first when sorted by leaked.
expect_eq "table rows" "$(grep -c '^<tr class=' report.html)" 4
grep -q '<tr class="leaked">.*python3 launch.py --listen.*11.0 GiB' report.html || die "the leak is not in the table"
grep -q "<script>" report.html || die "no sorting script"
exit 0
