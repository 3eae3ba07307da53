#!/bin/sh
# SPDX-License-Identifier: ISC
# bench/report.sh (make bench, after pairs.sh): a fleet's report.
#
# 50 node logs of 8 GPUs, 2 h sampled every 10 s (gpumem synth, random
# tasks: 400 GPUs, about 9,000 tasks), as issue 33 tried them.  gpumem
# report -o FILE (the first page, and a page of charts a host beside it)
# against gpumem tasks of the same logs, in pairs of runs taken in turn
# (report, tasks, report, tasks ...) so that a shared machine's drift
# hits both alike: the median of the pairs' ratios of wall time and of
# CPU time (user + system, gnuplot included), and the first page: its
# size and the GPUs its overview names.  A Markdown table on stdout.
# The goal: the report within 30 times the time of tasks, a first page
# under 4 MB that names all 400 GPUs.
#
#   BENCH_REPORT_PAIRS=5   pairs of runs
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/bin
pairs=${BENCH_REPORT_PAIRS:-5}
data=$top/bench/data/fleet-50-2h-10s
export LC_ALL=C TZ=UTC PATH="$bin:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (Debian package time)" >&2; exit 2; }
command -v gnuplot > /dev/null 2>&1 ||
    { echo "bench: gnuplot is missing (Debian package gnuplot-nox)" >&2; exit 2; }
[ -x "$bin/gpumem-report" ] || { echo "bench: build first (make)" >&2; exit 2; }
. "$top/bench/nodelogs.sh"
node_logs "$data" 50 2h 10s

# run OUT CMD...: "wall cpu" of one run, appended to OUT.
run() {
	out=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$tmp/t" "$@" > /dev/null
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/t" >> "$out"
}

load0=$(cut -d' ' -f1 /proc/loadavg)
i=0
while [ $i -lt "$pairs" ]; do
	rm -f "$tmp"/r*.html
	run "$tmp/report" gpumem-report -q -o "$tmp/r.html" "$data"/node-*.csv
	run "$tmp/tasks" gpumem-tasks -q -o "$tmp/t.csv" "$data"/node-*.csv
	i=$((i + 1))
done
load1=$(cut -d' ' -f1 /proc/loadavg)
tasks=$(($(wc -l < "$tmp/t.csv") - 1))
named=$(sed -n '/^<table class="ov">/,/^<\/table>/p' "$tmp/r.html" |
    grep -o '<td class="c' | wc -l | tr -d ' ')
beside=$(ls "$tmp" | grep -c '^r-.*\.html$' || :)
size=$(wc -c < "$tmp/r.html")
all=$(cat "$tmp"/r*.html | wc -c)

echo "## Report of a fleet: 50 node logs × 8 GPUs × 2 h at 10 s"
echo
echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, load average $load0" \
    "before, $load1 after; $tasks tasks; $pairs pairs of runs (report," \
    "tasks), median."
echo
paste -d' ' "$tmp/report" "$tmp/tasks" | awk '
function med(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ n++; rw[n] = $1; rc[n] = $2; tw[n] = $3; tc[n] = $4
  xw[n] = $1 / ($3 > 0 ? $3 : 0.01); xc[n] = $2 / ($4 > 0 ? $4 : 0.01) }
END {
	print "| | report | tasks | report / tasks (goal: under 30×) |"
	print "|---|---|---|---|"
	printf "| wall s | %.2f | %.2f | %.1f× |\n", med(rw, n), med(tw, n), med(xw, n)
	printf "| CPU s | %.2f | %.2f | %.1f× |\n", med(rc, n), med(tc, n), med(xc, n)
}'
echo
echo "First page: $(awk -v b="$size" 'BEGIN { printf "%.2f MB", b / 1e6 }')" \
    "(goal: under 4 MB), its overview names $named GPUs (goal: 400);" \
    "$beside pages of charts beside it, $(awk -v b="$all" \
    'BEGIN { printf "%.1f MB", b / 1e6 }') in all."
