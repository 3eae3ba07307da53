#!/bin/sh
# SPDX-License-Identifier: ISC
# bench/fleet.sh (make bench, after run.sh): a fleet's logs on one machine.
#
# N node logs (gpumem synth, random tasks, 8 GPUs, 1 s sampling, each
# node its own host) analysed by gpumem tasks: in one thread (-j 1), with
# worker threads (-j 2, -j N for the CPUs there are), on one core and on
# two (taskset), with --window 1 (the logs are in time order: nothing
# held back), and as GNU parallel runs one gpumem tasks per node log
# (the map part of a fleet run; the reduce is check/report on the
# tables).  Each command runs BENCH_FLEET_RUNS times (3); the fastest run
# counts (the machine is shared: the slower runs measure the others).
# Wall time, CPU time (user + system, threads and children included),
# records per second of wall time, the same per core used, records per
# CPU second (what a loaded machine cannot blur), the speed-up over -j 1
# in wall time and the peak RSS (/usr/bin/time; for GNU parallel the
# largest single run's) go to stdout as a Markdown table, with the
# machine and its load average before and after.
#
#   BENCH_FLEET_NODES=200   node logs
#   BENCH_FLEET_DURATION=1h each log's length
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/bin
nodes=${BENCH_FLEET_NODES:-200}
dur=${BENCH_FLEET_DURATION:-1h}
runs=${BENCH_FLEET_RUNS:-3}
data=$top/bench/data/fleet-$nodes-$dur
export LC_ALL=C TZ=UTC PATH="$bin:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

for t in parallel taskset /usr/bin/time; do
	command -v $t > /dev/null 2>&1 || {
		echo "bench: $t is missing (Debian packages parallel, util-linux," \
		    "time)" >&2
		exit 2
	}
done
[ -x "$bin/gpumem-tasks" ] || { echo "bench: build first (make)" >&2; exit 2; }

. "$top/bench/nodelogs.sh"
node_logs "$data" "$nodes" "$dur"
records=$(cat "$data"/node-*.csv | wc -l)
records=$((records - nodes))	# a header each
bytes=$(cat "$data"/node-*.csv | wc -c)
ncpu=$(nproc)

# measure CORES NAME CMD...: the fastest of $runs runs, as
# "wall user+sys maxrss_kb".
measure() {
	best=
	i=0
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$@" > /dev/null
		r=$(awk '{ printf "%s %.2f %s", $1, $2 + $3, $4 }' "$tmp/t")
		if [ -z "$best" ] || awk -v a="$r" -v b="$best" 'BEGIN {
		    split(a, x, " "); split(b, y, " "); exit !(x[1] < y[1]) }'; then
			best=$r
		fi
		i=$((i + 1))
	done
	echo "$best"
}

row() {	# row NAME CORES "wall cpu rss"
	echo "$3" | awk -v name="$1" -v cores="$2" -v recs="$records" \
	    -v base="$base" '{
		printf "| %s | %d | %.2f | %.2f | %.2f M | %.2f M | %.2f M | %.2f× | %.1f |\n",
		    name, cores, $1, $2, recs / $1 / 1e6,
		    recs / $1 / cores / 1e6, recs / $2 / 1e6, base / $1,
		    $3 / 1024
	}'
}

echo "## Fleet: $nodes node logs × 8 GPUs × $dur at 1 s"
echo
echo "$(date -u +%Y-%m-%dT%H:%MZ), $ncpu CPUs ($(grep -m1 'model name' \
    /proc/cpuinfo | sed 's/.*: //')), load average before:" \
    "$(cut -d' ' -f1-3 /proc/loadavg); $records records," \
    "$((bytes / 1000000)) MB of gpumem CSV."
echo
echo "| command | cores | wall s | CPU s | records/s | per core | per CPU s | vs -j 1 | peak RSS MB |"
echo "|---|---|---|---|---|---|---|---|---|"
r=$(measure gpumem-tasks -q -j 1 "$data"/node-*.csv)
base=$(echo "$r" | cut -d' ' -f1)
row "tasks -j 1" 1 "$r"
row "tasks -j 2" 2 "$(measure gpumem-tasks -q -j 2 "$data"/node-*.csv)"
row "taskset -c 0 tasks -j 2" 1 \
    "$(measure taskset -c 0 gpumem-tasks -q -j 2 "$data"/node-*.csv)"
row "taskset -c 0,1 tasks -j 2" 2 \
    "$(measure taskset -c 0,1 gpumem-tasks -q -j 2 "$data"/node-*.csv)"
if [ "$ncpu" -gt 2 ]; then
	row "tasks -j $ncpu" "$ncpu" \
	    "$(measure gpumem-tasks -q -j "$ncpu" "$data"/node-*.csv)"
fi
# The node logs are in time order: --window 1 holds nothing back.
row "tasks -j 1 --window 1" 1 \
    "$(measure gpumem-tasks -q -j 1 --window 1 "$data"/node-*.csv)"
row "tasks -j 2 --window 1" 2 \
    "$(measure gpumem-tasks -q -j 2 --window 1 "$data"/node-*.csv)"
row "read -j 1" 1 "$(measure gpumem-read -q -j 1 "$data"/node-*.csv)"
row "read -j 2" 2 "$(measure gpumem-read -q -j 2 "$data"/node-*.csv)"
# The map part of a GNU parallel run: one gpumem tasks per node log, its
# task table kept; the peak RSS is the largest single process's.
mkdir "$tmp/map"
r=$(measure parallel -j 2 "/usr/bin/time -f %M -o $tmp/map/{/.}.rss \
    gpumem-tasks -q -j 1 -o $tmp/map/{/.}.tasks {}" ::: "$data"/node-*.csv)
rss=$(cat "$tmp"/map/*.rss | sort -n | tail -n 1)
row "parallel -j 2 tasks (map)" 2 "$(echo "$r" |
    awk -v rss="$rss" '{ print $1, $2, rss }')"
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
