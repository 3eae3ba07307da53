#!/bin/sh
# SPDX-License-Identifier: ISC
# bench/pairs.sh (make bench, after fleet.sh): the three ratios of the
# speed goals, each from pairs of runs taken in turn (A B A B ...), so
# that a shared machine's drift hits both commands of a pair alike.
#
# "A over B" is B's time divided by A's: how many times faster A is.
#
#   one big input   gpumem read of one gpumem CSV (3 h at 100 ms, 8 GPUs,
#                   77 MB; decoded in chunks, formats/reader/chunks.h):
#                   -j 2 over -j 1, and no -j (the default) over -j 1;
#                   the same of the same recording as a --query-gpu CSV
#                   (111 MB; in chunks once its GPUs are known)
#   a fleet         gpumem tasks of 40 node logs (6 h at 1 s, 8 GPUs
#                   each): -j 2 over -j 1
#   UDP capture     tcpdump -r F -w /dev/null over gpumem read -q F
#                   -o /dev/null (350 min at 100 ms, 200 MB)
#   tshark          gpumem read -q F -o /dev/null over tshark with the
#                   GMEM dissector (contrib/wireshark/gmem.lua) giving
#                   the records' fields, on a smaller UDP capture (5 min
#                   at 100 ms, 2.8 MB, 24,000 packets: tshark takes
#                   seconds where gpumem takes milliseconds); goal: at
#                   least 100 by CPU
#   Epilog          contrib/slurm/gpumem-epilog for a 10-minute job on
#                   GPU 0 (squeue a stand-in), on a node's recording of
#                   30 days over one of 1 day (bench/recording.sh: hourly
#                   periods as gpumem-recorder writes them, 8 GPUs at
#                   1 s): the per-job cost must not grow with the days
#                   kept (goal: 1.00 within the noise); and the Epilog
#                   over gpumem check of the whole day (what it read
#                   before it picked the job's files)
#
# The paths are split into words: the tree's path must hold no spaces.
# For each: the median of the pairs' ratios of wall time and of CPU time
# (user + system, the process's rusage), their minimum and maximum, and the load
# average (1 minute) before and after, as a Markdown table on stdout.
# Only the ratios mean something on a shared machine, and only with the
# load beside them.
#
#   BENCH_PAIRS=7          pairs per ratio
#   BENCH_PAIRS_FLEET=6h   each node log's length
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/bin
pairs=${BENCH_PAIRS:-7}
fleetdur=${BENCH_PAIRS_FLEET:-6h}
data=$top/bench/data/pairs
fleet=$top/bench/data/fleet-40-$fleetdur
export LC_ALL=C TZ=UTC PATH="$bin:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

for t in tcpdump tshark python3; do
	command -v $t > /dev/null 2>&1 || {
		echo "bench: $t is missing (Debian packages tcpdump, tshark," \
		    "python3)" >&2
		exit 2
	}
done
[ -x "$bin/gpumem-read" ] || { echo "bench: build first (make)" >&2; exit 2; }

if [ ! -f "$data/.done" ] || [ ! -f "$data/big-query-gpu.csv" ]; then
	rm -rf "$data"
	mkdir -p "$data"
	echo "bench: making the paired data" >&2
	gpumem-synth -s random --interval 100ms --duration 3h --gpus 8 \
	    --seed 7 -o "$data/big.csv"
	gpumem-synth -s random --interval 100ms --duration 3h --gpus 8 \
	    --seed 7 --nvsmi "$tmp/nvsmi"
	mv "$tmp/nvsmi/query-gpu.csv" "$data/big-query-gpu.csv"
	gpumem-synth -s random --interval 100ms --duration 350m --seed 7 \
	    --gmem --host 10.0.0.7 -o "$tmp/udp.csv"
	gpumem-pcap -q -o "$data/udp.pcap" "$tmp/udp.csv"
	touch "$data/.done"
fi
if [ ! -f "$data/tshark.pcap" ]; then
	gpumem-synth -s random --interval 100ms --duration 5m --seed 7 \
	    --gmem --host 10.0.0.7 -o "$tmp/tshark.csv"
	gpumem-pcap -q -o "$data/tshark.pcap.new" "$tmp/tshark.csv"
	mv "$data/tshark.pcap.new" "$data/tshark.pcap"
fi
. "$top/bench/nodelogs.sh"
node_logs "$fleet" 40 "$fleetdur"
. "$top/bench/recording.sh"
node_recording "$top/bench/data/recording"

load() { cut -d' ' -f1 /proc/loadavg; }

# once FILE CMD...: run CMD, its output thrown away; append "wall cpu"
# to FILE, in seconds (wait4's rusage: microseconds, where
# /usr/bin/time has hundredths).
once() {
	python3 -c '
import os, subprocess, sys, time
t = time.monotonic()
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
wall = time.monotonic() - t
if status != 0:
    sys.exit("bench: failed (%d): %s" % (status, " ".join(sys.argv[2:])))
with open(sys.argv[1], "a") as f:
    f.write("%.6f %.6f\n" % (wall, ru.ru_utime + ru.ru_stime))
' "$@" || exit 2
}

# pair NAME 'A' 'B': a warm-up of each, then $pairs pairs in turn; a
# table row of B/A (how many times faster A is) by wall and by CPU.
pair() {
	: > "$tmp/a"
	: > "$tmp/b"
	l0=$(load)
	# shellcheck disable=SC2086 # the commands are split into words
	once /dev/null $2
	# shellcheck disable=SC2086
	once /dev/null $3
	i=0
	while [ $i -lt "$pairs" ]; do
		# shellcheck disable=SC2086
		once "$tmp/a" $2
		# shellcheck disable=SC2086
		once "$tmp/b" $3
		i=$((i + 1))
	done
	paste -d' ' "$tmp/a" "$tmp/b" | awk -v name="$1" -v l0="$l0" \
	    -v l1="$(load)" '
	function med(v, n,    i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		lo = v[1]; hi = v[n]
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	{
		n++
		w[n] = $1 > 0 ? $3 / $1 : 0
		c[n] = $2 > 0 ? $4 / $2 : 0
	}
	END {
		mw = med(w, n); wl = lo; wh = hi
		mc = med(c, n)
		printf "| %s | %.2f× (%.2f to %.2f) | %.2f× (%.2f to %.2f) | %s to %s |\n",
		    name, mw, wl, wh, mc, lo, hi, l0, l1
	}'
}

# Data just made may still be written back to the disk: not beside the
# first pairs (an idle run gave 1.06 for one big CSV's -j 2, 1.57 after).
sync

echo
echo "## Paired ratios ($(date -u +%Y-%m-%d), $(nproc) CPUs)"
echo
echo "$pairs pairs each, the two commands in turn; the median of the pairs'"
echo "ratios (minimum to maximum); above 1: the first command is faster."
echo
echo "| the first command over the second | by wall time | by CPU time | load average |"
echo "|---|---|---|---|"
pair "read of one big CSV: -j 2 over -j 1" \
    "gpumem-read -q -j 2 $data/big.csv" "gpumem-read -q -j 1 $data/big.csv"
pair "read of one big CSV: no -j over -j 1" \
    "gpumem-read -q $data/big.csv" "gpumem-read -q -j 1 $data/big.csv"
pair "read of one big query-gpu CSV: -j 2 over -j 1" \
    "gpumem-read -q -j 2 $data/big-query-gpu.csv" \
    "gpumem-read -q -j 1 $data/big-query-gpu.csv"
pair "read of one big query-gpu CSV: no -j over -j 1" \
    "gpumem-read -q $data/big-query-gpu.csv" \
    "gpumem-read -q -j 1 $data/big-query-gpu.csv"
pair "tasks of 40 node logs: -j 2 over -j 1" \
    "gpumem-tasks -q -j 2 $(echo "$fleet"/node-*.csv)" \
    "gpumem-tasks -q -j 1 $(echo "$fleet"/node-*.csv)"
pair "UDP capture: tcpdump over gpumem read (goal: at most 2 by CPU)" \
    "tcpdump -r $data/udp.pcap -w /dev/null" \
    "gpumem-read -q $data/udp.pcap -o /dev/null"
# tshark as tests/tools/tsharkrecs.sh runs it: every field of the records.
lua=$top/contrib/wireshark/gmem.lua
tshark="tshark -X lua_script:$lua -r $data/tshark.pcap -T fields -e ip.src
    -e ipv6.src -e gmem.gpu -e gmem.count -e gmem.memory_total
    -e gmem.timestamp -e gmem.process_id -e gmem.memory_used
    -e gmem.memory_free"
# shellcheck disable=SC2086 # the command is split into words
if $tshark -c 1 2> /dev/null | grep -q '^10\.0\.0\.7	.*	[0-9]'; then
	pair "UDP capture of 5 min: gpumem read over tshark with gmem.lua (goal: at least 100 by CPU)" \
	    "gpumem-read -q $data/tshark.pcap -o /dev/null" "$tshark"
else
	echo "| gpumem read over tshark with gmem.lua: tshark gives no GMEM field (no Lua?) | | | |"
fi

# The Epilog: squeue's stand-in gives the job's times (900 s to 300 s
# before the recording's end), logger's keeps its lines out of syslog;
# each recording its configuration.
rec=$top/bench/data/recording
t=$(cat "$rec/now")
mkdir "$tmp/bin"
printf '#!/bin/sh\necho %s %s\n' $((t - 900)) $((t - 300)) > "$tmp/bin/squeue"
printf '#!/bin/sh\n' > "$tmp/bin/logger"
chmod +x "$tmp/bin/squeue" "$tmp/bin/logger"
for r in day month; do
	cat > "$tmp/$r.conf" <<EOC
PATH=$tmp/bin:\$PATH
GPUMEM=$bin/gpumem
GPUMEM_EPILOG_RECORDING=$rec/$r
GPUMEM_EPILOG_LOG=$tmp/$r.log
EOC
	# The job's answer first: what is timed is a check, not a refusal.
	env SLURM_JOB_ID=1 SLURM_JOB_GPUS=0 GPUMEM_EPILOG_CONF="$tmp/$r.conf" \
	    sh "$top/contrib/slurm/gpumem-epilog"
	grep -q 'job 1 left no GPU memory' "$tmp/$r.log" || {
		echo "bench: the Epilog on $rec/$r: $(cat "$tmp/$r.log")" >&2
		exit 2
	}
done
epilog="env SLURM_JOB_ID=1 SLURM_JOB_GPUS=0 GPUMEM_EPILOG_CONF=$tmp"
pair "Epilog per job: 30 days of recording over 1 day (goal: 1.00)" \
    "$epilog/month.conf sh $top/contrib/slurm/gpumem-epilog" \
    "$epilog/day.conf sh $top/contrib/slurm/gpumem-epilog"
pair "Epilog per job, 1 day of recording: over a check of the whole day" \
    "$epilog/day.conf sh $top/contrib/slurm/gpumem-epilog" \
    "gpumem-check -q --gpu 0 $rec/day"
