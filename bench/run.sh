#!/bin/sh
# SPDX-License-Identifier: ISC
# bench/run.sh (make bench): how fast gpumem gets from a capture or a log
# to an answer, side by side with the tools a user would otherwise use.
#
# Pipelines pass records in the binary form between gpumem tools, as
# they do for users (formats/core/rec.h); one row shows read | tasks with text
# between.
#
# Data is made with gpumem synth (8 GPUs, 100 ms sampling, tasks with
# releases and leaks) at two sizes, about 20 MB and 200 MB of UDP capture:
# UDP pcap, TCP pcap, pcapng, pcap.gz, gpumem CSV and nvidia-smi CSV.  Each
# command is timed with hyperfine (a warm-up, then several runs: median
# and standard deviation; page cache warm), peak memory measured with
# tests/tools/maxrss.  One table goes to stdout and, with the machine and
# the targets, to bench/results.md.
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
export LC_ALL=C TZ=UTC PATH="$bin:$PATH"
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
need tcpdump tcpdump
need tshark tshark
[ -x "$maxrss" ] || { echo "bench: build first (make)" >&2; exit 2; }

# Durations that make about 20 MB and 200 MB of UDP capture.
dur_small=35m
dur_large=350m

make_data() {
	eval dur=\$dur_$1
	d=$data/$1
	[ -f "$d/.done" ] && return
	rm -rf "$d"
	mkdir -p "$d"
	echo "bench: making the $1 data ($dur of 8 GPUs at 100 ms)" >&2
	# Records as a GMEM sender sends them, so the captures read back
	# as exactly this CSV.
	gpumem-synth -s random --interval 100ms --duration "$dur" --seed 7 \
	    --gmem --host 10.0.0.7 -o "$d/records.csv"
	gpumem-pcap -q -o "$d/udp.pcap" "$d/records.csv"
	gpumem-pcap -q --tcp -o "$d/tcp.pcap" "$d/records.csv"
	gpumem-pcap -q --pcapng -o "$d/udp.pcapng" "$d/records.csv"
	gzip -c "$d/udp.pcap" > "$d/udp.pcap.gz"
	gpumem-synth -s random --interval 100ms --duration "$dur" --seed 7 \
	    --nvsmi "$d/nvsmi"
	touch "$d/.done"
}

# hyperfine on a shell command: "median stddev" in seconds.
timeit() {
	n=$1
	shift
	w=1
	[ "$n" -le 1 ] && w=0
	hyperfine --style none --warmup "$w" --runs "$n" --export-json \
	    "$tmp/h.json" "$1" >/dev/null 2>"$tmp/h.err" || {
		echo "bench: failed: $1" >&2
		cat "$tmp/h.err" >&2
		exit 2
	}
	awk -F: '/"median"/ { gsub(/[ ,]/, "", $2); m = $2 }
		/"stddev"/ { gsub(/[ ,]/, "", $2); s = $2 }
		END { if (s == "" || s == "null") s = 0; print m, s }' \
	    "$tmp/h.json"
}

rss_mb() {
	"$maxrss" /dev/null "$@" 2>/dev/null | awk '{ printf "%.1f", $1 / 1024 }'
}

bytes() { cat "$@" | wc -c | tr -d ' '; }

# A table row: input, size, bytes, records, "median sd", rss, then
# "peer=seconds" pairs.
table=$tmp/table.md
targets=$tmp/targets.txt
: > "$table"
: > "$targets"
row() {
	awk -v input="$1" -v sz="$2" -v bytes="$3" -v recs="$4" -v med="$5" \
	    -v sd="$6" -v rss="$7" -v peers="$8" 'BEGIN {
		mb = bytes / 1e6
		printf "| %s | %s | %.1f | %d | %.3f ± %.3f | %.0f | %.2f M | %s |",
		    input, sz, mb, recs, med, sd, mb / med, recs / med / 1e6, rss
		n = split(peers, p, ";")
		for (i = 1; i <= n; i++) {
			if (p[i] == "") continue
			split(p[i], q, "=")
			printf " %s %.3f s (%.2f×) |", q[1], q[2], med / q[2]
		}
		printf "\n"
	}' >> "$table"
}

# target NAME VALUE OP LIMIT: one line of the targets list.
target() {
	awk -v name="$1" -v v="$2" -v op="$3" -v lim="$4" 'BEGIN {
		ok = op == "<=" ? v <= lim : v >= lim
		printf "- %s: %.2f (target %s %s): %s\n", name, v, op, lim,
		    ok ? "met" : "NOT met"
	}' >> "$targets"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print a / b }'; }

for size in $sizes; do
	make_data "$size"
	d=$data/$size
	nrec=$(($(wc -l < "$d/records.csv") - 1))
	echo "bench: timing the $size data ($nrec records)" >&2
	tr=$runs
	[ "$size" = large ] && tr=1 || tr=2

	# Captures: UDP pcap against tcpdump, cat and tshark.
	set -- $(timeit "$runs" "gpumem-read -q $d/udp.pcap > /dev/null")
	udp=$1 udpsd=$2
	rss=$(rss_mb gpumem-read -q "$d/udp.pcap")
	set -- $(timeit "$runs" "tcpdump -r $d/udp.pcap -w /dev/null 2>/dev/null")
	td=$1
	set -- $(timeit "$runs" "cat $d/udp.pcap > /dev/null")
	cat_s=$1
	set -- $(timeit "$tr" "tshark -r $d/udp.pcap -T fields -e udp.payload > /dev/null 2>&1")
	ts=$1
	row "UDP pcap" "$size" "$(bytes "$d/udp.pcap")" "$nrec" "$udp" \
	    "$udpsd" "$rss" "tcpdump=$td;cat=$cat_s;tshark=$ts"
	target "$size UDP pcap: gpumem / tcpdump" "$(ratio "$udp" "$td")" "<=" 1.5
	target "$size UDP pcap: tshark / gpumem" "$(ratio "$ts" "$udp")" ">=" 100

	for f in tcp.pcap udp.pcapng; do
		set -- $(timeit "$runs" "gpumem-read -q $d/$f > /dev/null")
		med=$1 sd=$2
		rss=$(rss_mb gpumem-read -q "$d/$f")
		set -- $(timeit "$runs" "tcpdump -r $d/$f -w /dev/null 2>/dev/null")
		td=$1
		set -- $(timeit "$runs" "cat $d/$f > /dev/null")
		case $f in tcp.pcap) name="TCP pcap" ;; *) name=pcapng ;; esac
		row "$name" "$size" "$(bytes "$d/$f")" "$nrec" "$med" "$sd" \
		    "$rss" "tcpdump=$td;cat=$1"
		# The same records: the time per record is the time.
		if [ "$f" = tcp.pcap ]; then
			target "$size TCP pcap: per record / UDP pcap" \
			    "$(ratio "$med" "$udp")" "<=" 1.3
		fi
	done
	set -- $(timeit "$runs" "gpumem-read -q $d/udp.pcap.gz > /dev/null")
	med=$1 sd=$2
	rss=$(rss_mb gpumem-read -q "$d/udp.pcap.gz")
	set -- $(timeit "$runs" "gzip -dc $d/udp.pcap.gz | tcpdump -r - -w /dev/null 2>/dev/null")
	td=$1
	set -- $(timeit "$runs" "gzip -dc $d/udp.pcap.gz > /dev/null")
	row "pcap.gz" "$size" "$(bytes "$d/udp.pcap.gz")" "$nrec" "$med" \
	    "$sd" "$rss" "gzip -d \\| tcpdump=$td;gzip -d=$1"

	# Text: gpumem CSV and nvidia-smi CSV, against cat and Miller.
	c=$d/records.csv
	set -- $(timeit "$runs" "gpumem-read -q $c > /dev/null")
	csv=$1 csvsd=$2
	rss=$(rss_mb gpumem-read -q "$c")
	set -- $(timeit "$runs" "cat $c > /dev/null")
	cat_s=$1
	set -- $(timeit "$tr" "mlr --icsv --ojson stats1 -a count,max -f memory_used -g gpu,process_id $c > /dev/null")
	ml=$1
	row "gpumem CSV" "$size" "$(bytes "$c")" "$nrec" "$csv" "$csvsd" \
	    "$rss" "cat=$cat_s;mlr=$ml"
	target "$size gpumem CSV: MB/s" "$(awk -v b="$(bytes "$c")" -v t="$csv" 'BEGIN { print b / t / 1e6 }')" ">=" 300
	target "$size gpumem CSV: Miller / gpumem" "$(ratio "$ml" "$csv")" ">=" 20

	q=$d/nvsmi/query-gpu.csv a=$d/nvsmi/compute-apps.csv
	nv=$(($(gpumem-read -q "$q" "$a" | wc -l) - 1))
	set -- $(timeit "$runs" "gpumem-read -q $q $a > /dev/null")
	med=$1 sd=$2
	rss=$(rss_mb gpumem-read -q "$q" "$a")
	set -- $(timeit "$runs" "cat $q $a > /dev/null")
	cat_s=$1
	set -- $(timeit "$tr" "mlr --icsv --ojson stats1 -a count,max -f ' memory.used [MiB]' -g ' index' $q > /dev/null && mlr --icsv --ojson stats1 -a count,max -f ' used_gpu_memory [MiB]' -g ' pid' $a > /dev/null")
	ml=$1
	row "nvidia-smi CSV" "$size" "$(bytes "$q" "$a")" "$nv" "$med" "$sd" \
	    "$rss" "cat=$cat_s;mlr=$ml"
	target "$size nvidia-smi CSV: MB/s" "$(awk -v b="$(bytes "$q" "$a")" -v t="$med" 'BEGIN { print b / t / 1e6 }')" ">=" 300
	target "$size nvidia-smi CSV: Miller / gpumem" "$(ratio "$ml" "$med")" ">=" 20

	# Pipelines from the UDP capture.
	set -- $(timeit "$runs" "gpumem-read -q $d/udp.pcap | gpumem-tasks -q > /dev/null")
	rt=$1
	row "read \\| tasks" "$size" "$(bytes "$d/udp.pcap")" "$nrec" "$1" \
	    "$2" "$(rss_mb gpumem-tasks -q "$d/udp.pcap")" "read=$udp"
	target "$size read | tasks / read" "$(ratio "$rt" "$udp")" "<=" 1.3
	# The same pipeline with the text stream between the two (rec.h).
	set -- $(timeit "$runs" "GPUMEM_STREAM=text gpumem-read -q $d/udp.pcap | gpumem-tasks -q > /dev/null")
	row "read \\| tasks, text between" "$size" "$(bytes "$d/udp.pcap")" \
	    "$nrec" "$1" "$2" "" "read=$udp"
	set -- $(timeit "$runs" "gpumem-read -q $d/udp.pcap | gpumem-plot -q --script > /dev/null")
	row "read \\| plot --script" "$size" "$(bytes "$d/udp.pcap")" "$nrec" \
	    "$1" "$2" "$(rss_mb gpumem-plot -q --script "$d/udp.pcap")" \
	    "read=$udp"
	set -- $(timeit "$runs" "gpumem-read -q $d/udp.pcap | gpumem-tasks -q | gpumem-gantt -q --text > /dev/null")
	row "read \\| tasks \\| gantt --text" "$size" "$(bytes "$d/udp.pcap")" \
	    "$nrec" "$1" "$2" "" "read=$udp"
	if command -v gnuplot >/dev/null 2>&1; then
		set -- $(timeit "$runs" "gpumem-plot -q -o $tmp/p.png $d/udp.pcap")
		row "plot -o png" "$size" "$(bytes "$d/udp.pcap")" "$nrec" \
		    "$1" "$2" "$(rss_mb gpumem-plot -q -o "$tmp/p.png" "$d/udp.pcap")" ""
		[ "$size" = large ] && target "plot of the large input (s)" "$1" "<=" 3
	fi
	set -- $(timeit "$runs" "gpumem-usage -q $c > /dev/null")
	row "usage" "$size" "$(bytes "$c")" "$nrec" "$1" "$2" \
	    "$(rss_mb gpumem-usage -q "$c")" ""
	for t in read tasks usage plot; do
		case $t in
		plot) r=$(rss_mb gpumem-plot -q --script "$d/udp.pcap") ;;
		*) r=$(rss_mb gpumem-$t -q "$d/udp.pcap") ;;
		esac
		echo "$t $size $r" >> "$tmp/rss.txt"
	done
done

# Peak memory may not grow with the input: compare the two sizes.
if [ -f "$tmp/rss.txt" ] && grep -q ' large ' "$tmp/rss.txt" &&
    grep -q ' small ' "$tmp/rss.txt"; then
	for t in read tasks usage plot; do
		s=$(awk -v t=$t '$1 == t && $2 == "small" { print $3 }' "$tmp/rss.txt")
		l=$(awk -v t=$t '$1 == t && $2 == "large" { print $3 }' "$tmp/rss.txt")
		target "peak RSS of $t, large - small (MB)" \
		    "$(awk -v a="$l" -v b="$s" 'BEGIN { print a - b }')" "<=" 2
	done
fi

{
	echo "# gpumem benchmarks"
	echo
	echo "Made by \`make bench\` on $(date -u +%Y-%m-%d)."
	echo
	echo "Machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1),"
	echo "$(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GiB,"
	echo "Linux $(uname -r); hyperfine $(hyperfine --version | cut -d' ' -f2),"
	echo "tcpdump $(tcpdump --version 2>&1 | sed -n 's/^tcpdump version //p'),"
	echo "$(tshark --version 2>/dev/null | head -n 1 | cut -d' ' -f1-3 | sed 's/[. ]*$//'),"
	echo "mlr $(mlr --version | cut -d' ' -f2)."
	echo
	echo "Data: gpumem synth, 8 GPUs sampled every 100 ms with tasks"
	echo "starting, ending, releasing late and leaking; small = $dur_small,"
	echo "large = $dur_large of it.  Times are medians of $runs runs after a"
	echo "warm-up (page cache warm; tshark and Miller: 2 runs on small, 1 on"
	echo "large), ± the standard deviation.  gpumem writes its text record"
	echo "stream to /dev/null; in pipelines gpumem tools pass the binary form"
	echo "between them, as they do for users (one row has text between); the"
	echo "peers do what a user would do without gpumem."
	echo "A ratio is gpumem's time over the peer's (below 1: gpumem is"
	echo "faster)."
	echo
	echo "| input | size | MB | records | gpumem s | MB/s | records/s | peak RSS MB | peers |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
	cat "$table"
	echo
	echo "## Targets"
	echo
	cat "$targets"
} > "$out"
cat "$out"
