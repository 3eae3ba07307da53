#!/bin/sh
# SPDX-License-Identifier: ISC
# bench/run.sh (make bench): how fast gpumem gets from a capture or a log
# to an answer, side by side with the tools a user would otherwise use.
#
# Data is made with gpumem synth (8 GPUs, 100 ms sampling, tasks with
# releases and leaks) at two sizes, timed with hyperfine (a warm-up, then
# several runs: median and spread), peak memory measured with
# tests/tools/maxrss.  The table goes to stdout and, with the machine, to
# bench/results.md.
#
#   BENCH_SIZES="small large"   which sizes (default both)
#   BENCH_RUNS=5                runs per command (tshark: 2)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/bin
maxrss=$top/build/normal/tools/maxrss
data=$top/bench/data
out=$top/bench/results.md
runs=${BENCH_RUNS:-5}
sizes=${BENCH_SIZES:-small large}
export LC_ALL=C TZ=UTC
mkdir -p "$data"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

need() {
	command -v "$1" >/dev/null 2>&1 || {
		echo "bench: $1 is missing (Debian package $2)" >&2
		exit 2
	}
}
need hyperfine hyperfine
need mlr miller
[ -x "$maxrss" ] || { echo "bench: build first (make)" >&2; exit 2; }

# duration of each size: about 20 MB and 200 MB of UDP capture
dur_small=35m
dur_large=350m

# The data, made once per size and kept in bench/data.
make_data() {
	size=$1
	eval dur=\$dur_$size
	d=$data/$size
	[ -f "$d/.done" ] && return
	rm -rf "$d"
	mkdir -p "$d"
	echo "bench: making $size data ($dur of 8 GPUs at 100 ms)" >&2
	"$bin/gpumem" synth -s random --interval 100ms --duration "$dur" \
	    --seed 7 > "$d/records.csv"
	"$bin/gpumem" synth -s random --interval 100ms --duration "$dur" \
	    --seed 7 --nvsmi "$d/nvsmi"
	touch "$d/.done"
}

# The median of hyperfine's runs and their spread (stddev), in seconds:
# "median stddev".
stats() {
	awk -F: '/"median"/ { gsub(/[ ,]/, "", $2); m = $2 }
		/"stddev"/ { gsub(/[ ,]/, "", $2); s = $2 }
		END { if (s == "" || s == "null") s = 0; print m, s }' "$tmp/h.json"
}

# time_cmd N 'COMMAND': timed without a shell.
time_cmd() {
	hyperfine --style none --warmup 1 --runs "$1" -N --export-json \
	    "$tmp/h.json" "$2" >/dev/null 2>"$tmp/h.err" || {
		echo "bench: failed: $2" >&2
		cat "$tmp/h.err" >&2
		exit 2
	}
	stats
}

# time_sh N 'SHELL COMMAND': through a shell (pipes, redirections).
time_sh() {
	hyperfine --style none --warmup 1 --runs "$1" --export-json \
	    "$tmp/h.json" "$2" >/dev/null 2>"$tmp/h.err" || {
		echo "bench: failed: $2" >&2
		cat "$tmp/h.err" >&2
		exit 2
	}
	stats
}

rss_mb() {
	"$maxrss" /dev/null "$@" 2>/dev/null | awk '{ printf "%.1f", $1 / 1024 }'
}

bytes() { cat "$@" | wc -c; }

rows=
# row INPUT SIZE BYTES RECORDS "median sd" RSS PEERS...
row() {
	rows="$rows
$*"
}

fmt_row() {
	# input size_mb records median sd rss peers...
	awk -v input="$1" -v sz="$2" -v bytes="$3" -v recs="$4" -v med="$5" \
	    -v sd="$6" -v rss="$7" -v peers="$8" 'BEGIN {
		mb = bytes / 1e6
		printf "| %s | %s | %.0f | %d | %.3f ± %.3f | %.0f | %.2f M | %s |",
		    input, sz, mb, recs, med, sd, mb / med, recs / med / 1e6, rss
		n = split(peers, p, ";")
		for (i = 1; i <= n; i++) {
			if (p[i] == "") continue
			split(p[i], q, "=")
			printf " %s %.3f s (%.2fx) |", q[1], q[2], med / q[2]
		}
		printf "\n"
	}'
}

table=$tmp/table.md
: > "$table"
for size in $sizes; do
	make_data "$size"
	d=$data/$size
	nrec=$(($(wc -l < "$d/records.csv") - 1))

	# gpumem CSV: read it, against cat and Miller.
	set -- $(time_sh "$runs" "$bin/gpumem-read -q $d/records.csv > /dev/null")
	med=$1 sd=$2
	rss=$(rss_mb "$bin/gpumem-read" -q "$d/records.csv")
	set -- $(time_sh "$runs" "cat $d/records.csv > /dev/null")
	cat_s=$1
	set -- $(time_sh "$runs" "mlr --icsv --ojson stats1 -a count,max -f memory_used -g gpu,process_id $d/records.csv > /dev/null")
	mlr_s=$1
	fmt_row "gpumem CSV" "$size" "$(bytes "$d/records.csv")" "$nrec" \
	    "$med" "$sd" "$rss" "cat=$cat_s;mlr=$mlr_s" >> "$table"

	# nvidia-smi CSV: the two logs of a recording.
	q=$d/nvsmi/query-gpu.csv a=$d/nvsmi/compute-apps.csv
	set -- $(time_sh "$runs" "$bin/gpumem-read -q $q $a > /dev/null")
	med=$1 sd=$2
	rss=$(rss_mb "$bin/gpumem-read" -q "$q" "$a")
	set -- $(time_sh "$runs" "cat $q $a > /dev/null")
	cat_s=$1
	set -- $(time_sh "$runs" "mlr --icsv --ojson stats1 -a count,max -f ' memory.used [MiB]' -g ' index' $q > /dev/null && mlr --icsv --ojson stats1 -a count,max -f ' used_gpu_memory [MiB]' -g ' pid' $a > /dev/null")
	mlr_s=$1
	fmt_row "nvidia-smi CSV" "$size" "$(bytes "$q" "$a")" "$nrec" \
	    "$med" "$sd" "$rss" "cat=$cat_s;mlr=$mlr_s" >> "$table"

	# The pipeline: read | tasks, against read alone.
	set -- $(time_sh "$runs" "$bin/gpumem-read -q $d/records.csv | $bin/gpumem-tasks -q > /dev/null")
	med=$1 sd=$2
	set -- $(time_sh "$runs" "$bin/gpumem-read -q $d/records.csv > /dev/null")
	read_s=$1
	rss=$(rss_mb "$bin/gpumem-tasks" -q "$d/records.csv")
	fmt_row "read \\| tasks" "$size" "$(bytes "$d/records.csv")" "$nrec" \
	    "$med" "$sd" "$rss" "read=$read_s" >> "$table"

	rss=$(rss_mb "$bin/gpumem-usage" -q "$d/records.csv")
	set -- $(time_sh "$runs" "$bin/gpumem-usage -q $d/records.csv > /dev/null")
	fmt_row "usage" "$size" "$(bytes "$d/records.csv")" "$nrec" \
	    "$1" "$2" "$rss" "" >> "$table"
done

{
	echo "# gpumem benchmarks"
	echo
	echo "Made by \`make bench\` on $(date -u +%Y-%m-%d)."
	echo
	echo "Machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1),"
	echo "$(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GiB,"
	echo "Linux $(uname -r); hyperfine $(hyperfine --version | cut -d' ' -f2),"
	echo "mlr $(mlr --version | cut -d' ' -f2)."
	echo "Times are medians of $runs runs after a warm-up (page cache warm),"
	echo "± the standard deviation; ratios are gpumem / peer (below 1: gpumem"
	echo "is faster)."
	echo
	echo "| input | size | MB | records | gpumem s | MB/s | records/s | peak RSS MB | peers |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
	cat "$table"
} > "$out"
cat "$out"
