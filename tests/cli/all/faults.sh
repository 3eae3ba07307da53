# Fault injection: each allocation, each read and each open of a run
# fails in turn (tests/tools/inject.c, an LD_PRELOAD shim; libc's and the
# libraries' calls count too).  Every run ends as the clean run does, or
# with exit 2 and a message; never with a signal, and never with exit 0
# and less output than the clean run (a silent partial result).  A run
# with many calls tries the first 100 of each kind and a spread of the
# rest, at most 300.  Not under ASan, which has its own malloc.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "the shim cannot come before ASan's own malloc"
shim=$TOOLS/inject.so
[ -f "$shim" ] || die "$shim was not built"

# Small inputs of every main path.
gpumem-synth -s two-waiting -o s.csv
gzip -c s.csv > s.csv.gz
gpumem-synth -s pid-reuse --nvsmi logs
gpumem-synth -s leak --gmem --host 10.0.0.7 -o g.csv
gpumem-pcap -q --tcp -o g.pcap g.csv
gpumem-pcap -q --pcapng --mtu 200 -o g.pcapng g.csv
cat > x.xml <<'XML'
<?xml version="1.0" ?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">
<nvidia_smi_log>
	<timestamp>Thu Jan  1 00:00:00 2026</timestamp>
	<attached_gpus>1</attached_gpus>
	<gpu id="00000000:01:00.0">
		<minor_number>0</minor_number>
		<fb_memory_usage>
			<total>16384 MiB</total>
			<reserved>0 MiB</reserved>
			<used>4096 MiB</used>
			<free>12288 MiB</free>
		</fb_memory_usage>
		<processes>
			<process_info>
				<pid>4242</pid>
				<type>C</type>
				<process_name>python3</process_name>
				<used_memory>4000 MiB</used_memory>
			</process_info>
		</processes>
	</gpu>
</nvidia_smi_log>
XML
cat > c.yaml <<'YAML'
tolerance_mib: 64
names:
  - match: "python*"
    name: py
defaults:
  max_leak_mib: 0
baseline:
  max_delay_regression: 25%
YAML
cat > jobs.yaml <<'YAML'
- name: train
  gpu: 0
  start: 2026-01-01T00:00:05Z
  end: 2026-01-01T00:00:40Z
YAML
gpumem-synth -s two-waiting --nvsmi dev
gpumem-tasks -q -o base.csv s.csv

runs=0
# try NAME CMD...: every kind of call failing in turn.
try() {
	name=$1
	shift
	want=0; "$@" > clean.out 2> clean.err || want=$?
	[ $want -le 2 ] || die "$name: the clean run exits $want: $(cat clean.err)"
	GPUMEM_INJECT_COUNT=count.txt LD_PRELOAD=$shim "$@" > /dev/null 2>&1
	for kind in malloc read open; do
		n=$(sed -n "s/^$kind //p" count.txt)
		[ -n "$n" ] || die "$name: the shim counted no $kind"
		step=1
		[ "$n" -gt 300 ] && step=$(((n - 100) / 200 + 1))
		k=1
		while [ $k -le "$n" ]; do
			rc=0; GPUMEM_INJECT=$kind:$k LD_PRELOAD=$shim "$@" > out 2> err || rc=$?
			runs=$((runs + 1))
			what="$name with $kind call $k of $n failing"
			[ $rc -le 2 ] || die "$what: exit $rc: $(tail -n 3 err)"
			if [ $rc -eq "$want" ]; then
				cmp -s out clean.out ||
				    die "$what: exit $rc with other output: $(tail -n 3 err)"
			else
				[ $rc -eq 2 ] || die "$what: exit $rc (clean: $want)"
				[ -s err ] || die "$what: exit $rc without a message"
			fi
			! ls -a | grep -q '\.tmp' || die "$what: a temporary file was left: $(ls -a)"
			if [ $k -lt 100 ] || [ $step -eq 1 ]; then
				k=$((k + 1))
			elif [ $k -lt "$n" ] && [ $((k + step)) -gt "$n" ]; then
				k=$n
			else
				k=$((k + step))
			fi
		done
	done
}
try "read csv" gpumem-read -q s.csv
try "read gzip" gpumem-read -q s.csv.gz
try "read logs" gpumem-read -q logs
try "read pcap" gpumem-read -q g.pcap
try "read pcapng" gpumem-read -q g.pcapng
try "read xml" gpumem-read -q x.xml
try "read -o" gpumem-read -q -o out.csv s.csv
try "tasks -o" gpumem-tasks -q --config c.yaml -t json -o t.json s.csv
try "tasks --tasks" gpumem-tasks -q --tasks jobs.yaml dev/query-gpu.csv
try "usage" gpumem-usage -q --every 10s s.csv
try "check" gpumem-check -q --config c.yaml --baseline base.csv --json - s.csv
echo "$runs runs" >&2
exit 0
