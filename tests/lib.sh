# SPDX-License-Identifier: ISC
# tests/lib.sh: helpers for end-to-end cases (sourced: . "$TESTS/lib.sh").
# Cases run under `sh -eu` (tests/run.sh): so do these helpers.

# Skip this case, saying why (exit 77).
skip() {
	echo "$*"
	exit 77
}

# The real-world corpus of the tree (tests/corpus: real logs and captures
# with their provenance; tests/run.sh sets CORPUS to it): a part of the
# corpus a case reads, which must be there (every clone has it).
need_corpus() {
	[ -n "${CORPUS:-}" ] || CORPUS=$TESTS/corpus
	[ -d "$CORPUS/$1" ] || die "$CORPUS/$1 is absent (tests/corpus is part of the tree)"
}

# Fail with a message on stderr.
die() {
	echo "FAILED: $*" >&2
	exit 1
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || die "$1: got '$2', expected '$3'"
}

# expect_exit WANT CMD...: run CMD, check its exit status.
expect_exit() {
	want=$1
	shift
	rc=0
	"$@" || rc=$?
	[ $rc -eq "$want" ] || die "$*: exit $rc, expected $want"
}

# Count the records (lines after the header) of a record stream file.
nrec() {
	tail -n +2 "$1" | wc -l | tr -d ' '
}

# wait_for SECONDS CMD...: run CMD until it succeeds, every 50 ms; return
# 1 when it has not after SECONDS (generous: machines are loaded).
wait_for() {
	_wf_end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -le "$_wf_end" ] || return 1
		sleep 0.05
	done
}

# pipe_read_by PROGRAM: true once a process running PROGRAM (the name of
# its executable) reads the pipe on our stdout and no other process does:
# on the left of a pipe, `wait_for 30 pipe_read_by gpumem-tasks` waits
# until the right has started its program (a shell not yet replaced by
# it fails), as gpumem's writer looks for its reader (formats/core/rec.c).
pipe_read_by() {
	{ _pr_pipe=$(readlink /proc/self/fd/9); } 9>&1
	_pr_found=1
	for _pr_fd in /proc/[0-9]*/fd/0; do
		[ "$(readlink "$_pr_fd" 2> /dev/null)" = "$_pr_pipe" ] || continue
		_pr_exe=$(readlink "${_pr_fd%/fd/0}/exe" 2> /dev/null) || return 1
		[ "${_pr_exe##*/}" = "$1" ] || return 1
		_pr_found=0
	done
	return $_pr_found
}

# Differential cases (cli/read/oracle-*.sh): tshark with the GMEM
# dissector and gpumem read on one capture.  oracle_tshark CAPTURE:
# tshark's records of CAPTURE (tools/tsharkrecs.sh), sorted, into
# tshark.txt; they must be truth.txt's (what was sent, sorted).
# oracle_read WHAT INPUT...: gpumem read -q of INPUT... gives tshark.txt's
# records, every field and timestamp verbatim, and says nothing; WHAT
# names the reading in messages; "WHAT: the same N records" on stdout.
oracle_tshark() {
	sh "$TESTS/tools/tsharkrecs.sh" "$1" | sort > tshark.txt ||
		die "$1: tshark failed"
	cmp -s tshark.txt truth.txt ||
		die "$1: the dissector differs from what was sent: $(diff truth.txt tshark.txt | head -n 3)"
}
oracle_read() {
	_or_what=$1
	shift
	gpumem-read -q "$@" > read.csv 2> read.err ||
		die "$_or_what: read: exit $?: $(head -n 3 read.err)"
	tail -n +2 read.csv | sort > read.txt
	cmp -s read.txt tshark.txt ||
		die "$_or_what: gpumem read differs from tshark in $(diff tshark.txt read.txt | grep -c '^[<>]') lines: $(diff tshark.txt read.txt | head -n 3); it said: $(head -n 2 read.err)"
	! [ -s read.err ] || die "$_or_what: read said: $(head -n 3 read.err)"
	echo "$_or_what: the same $(wc -l < read.txt) records"
}

# Background processes of the case, killed when it ends however it ends.
bg_pids=
bg_add() {
	bg_pids="$bg_pids $1"
	trap 'kill $bg_pids 2>/dev/null || :' EXIT
}

# sink_start FILE [gmemsink options]: a GMEM collector ($TOOLS/gmemsink)
# in the background, its output in FILE; sets sink_pid and sink_port.
sink_start() {
	_ss_out=$1
	shift
	rm -f "$_ss_out"
	"$TOOLS/gmemsink" "$@" > "$_ss_out" 2> "$_ss_out.err" &
	sink_pid=$!
	bg_add $sink_pid
	wait_for 30 test -s "$_ss_out" || die "gmemsink did not start: $(cat "$_ss_out.err")"
	sink_port=$(head -n 1 "$_ss_out")
}

# in_netns: run the case again in a network namespace of its own, whose
# loopback is up at an MTU of 1500 (and GSO packets no larger), so that
# datagrams come in fragments and TCP streams in segments as on a real
# network; skipped when no namespace may be made.
in_netns() {
	if [ -z "${GPUMEM_NETNS:-}" ]; then
		command -v unshare > /dev/null || skip "unshare is not installed"
		unshare -n true 2> /dev/null ||
			skip "no network namespace may be made"
		GPUMEM_NETNS=1 exec unshare -n sh -eu "$0"
	fi
	ip link set lo up mtu 1500 gso_max_size 1500 ||
		skip "ip link cannot set the MTU of lo"
}

# wide_stream SECONDS: a record stream (stdout) of 500 processes a second
# from 127.0.0.1 on GPUs 0 and 1 by turns, from 2026-01-01T00:00:00Z: a
# GMEM frame of 10 KB a second.
wide_stream() {
	awk -v n="$1" 'BEGIN {
		print "timestamp,host,gpu,process_id,memory_used," \
		    "memory_free,memory_total,process_name"
		for (t = 0; t < n; t++)
			for (i = 0; i < 500; i++)
				printf "%d000000000,127.0.0.1,%d,%d,%d,1000," \
				    "81920,\n", 1767225600 + t, t % 2, i + 1,
				    (t * 7 + i) % 5000
	}'
}

# lo_capture FILE FILTER [OPTION...]: tcpdump on the loopback interface into
# FILE (with more tcpdump options: -C 1 to rotate), in the background
# (cap_pid); the case is skipped when tcpdump is missing or may not
# capture there.  Packets reach FILE within a second or so (the
# kernel hands them over in blocks: no --immediate-mode, whose ring of
# snapshot-sized slots overflows on a burst of datagrams when the machine
# is busy): wait for what must be in it before lo_capture_stop.
lo_capture() {
	command -v tcpdump > /dev/null || skip "tcpdump is not installed"
	cap_file=$1
	_lc_filter=$2
	shift 2
	rm -f "$cap_file" "$cap_file.err"
	# Not the case's fds 3-5: a FIFO it writes must see its end.
	tcpdump -i lo -n -U -B 65536 -Z "$(id -un)" "$@" \
	    -w "$cap_file" "$_lc_filter" 2> "$cap_file.err" 3>&- 4>&- 5>&- &
	cap_pid=$!
	bg_add $cap_pid
	wait_for 30 _lo_capture_ready || die "tcpdump did not start"
	grep -q 'listening on' "$cap_file.err" ||
		skip "cannot capture on lo: $(head -n 1 "$cap_file.err")"
}
_lo_capture_ready() {
	grep -q 'listening on' "$cap_file.err" 2> /dev/null ||
	    ! kill -0 $cap_pid 2> /dev/null
}

# lo_capture_live FILE FILTER: as lo_capture, but tcpdump writes into the
# FIFO live.fifo, for a live reader the case starts; FILE gets a copy,
# written after the FIFO's (wait on FILE for what the reader has been
# given).  Stop it with kill -INT $cap_pid (once the reader is gone).
lo_capture_live() {
	command -v tcpdump > /dev/null || skip "tcpdump is not installed"
	rm -f "$1" "$1.err" live.fifo "$1.fifo"
	mkfifo live.fifo "$1.fifo"
	tcpdump -i lo -n -U -B 65536 -Z "$(id -un)" \
	    -w - "$2" > "$1.fifo" 2> "$1.err" 3>&- 4>&- 5>&- &
	cap_pid=$!
	cap_file=$1
	bg_add $cap_pid
	tee "$1" < "$1.fifo" > live.fifo 3>&- 4>&- 5>&- &
	bg_add $!
	wait_for 30 _lo_capture_ready || die "tcpdump did not start"
	grep -q 'listening on' "$1.err" ||
		skip "cannot capture on lo: $(head -n 1 "$1.err")"
}

# lo_capture_stop: stop the capture (tcpdump drops what it has not
# written yet: wait for what must be in it first) and say what it dropped.
lo_capture_stop() {
	kill -INT $cap_pid
	wait $cap_pid
	! grep -q '[1-9][0-9]* packets* dropped by kernel' "$cap_file.err" ||
		die "tcpdump: $(grep 'dropped by kernel' "$cap_file.err")"
}

# recording 'AWK STATEMENTS': a record stream (stdout) made with awk, as a
# user writes one: the header, then what the statements print.  They have
# t0 (2026-01-01T00:00:00Z, in seconds), dev(s, used) for GPU 0's sample
# (16384 MiB) at t0 + s, and proc(s, pid, used, name) for a process
# listed at t0 + s (s may have decimals, to the ms; used may be "").
recording() {
	cat > recording.awk <<'AWK'
function dev(s, used) {
	printf "%d000000000,,0,0,%d,%d,16384,\n", t0 + s, used, 16384 - used
}
function proc(s, pid, used, name) {
	printf "%d%09d,,0,%d,%s,,,%s\n", t0 + int(s),
	    int((s - int(s)) * 1000 + 0.5) * 1000000, pid, used, name
}
BEGIN {
	t0 = 1767225600
	print "timestamp,host,gpu,process_id,memory_used,memory_free," \
	    "memory_total,process_name"
}
AWK
	printf 'BEGIN {\n%s\n}\n' "$1" >> recording.awk
	awk -f recording.awk
}

# to_end_stream: a record stream (stdout) of 60 s whose two tasks last
# to the log's end, long-named: "python3 -m torch.run train.py" (pid
# 101) holds 4096 MiB from 00:00:00, ends at 00:00:50, its memory never
# comes back (leaked, 4.0 GiB); "python3 eval.py --all" (102) holds 2048
# MiB from 00:00:05 to 00:00:40, back at the last sample, 00:00:59 (19 s).
# Narrow Gantt charts of it leave little room for their texts
# (gantt/no-room.sh, report/browser-labels.sh).
to_end_stream() {
	recording '
for (s = 0; s < 60; s++) {
	dev(s, (s < 59 ? 2048 : 0) + 4096)
	proc(s, 101, s < 50 ? 4096 : 0, "python3 -m torch.run train.py")
	if (s >= 5) proc(s, 102, s < 40 ? 2048 : 0, "python3 eval.py --all")
}'
}

# residue_stream LEFT: a record stream (stdout) whose truth is known by
# construction.  GPU 0 (16384 MiB) is idle (0 MiB used) for 5 s; train.py
# (pid 4242) holds 4096 MiB from 00:00:05 and ends at 00:00:15 (its row
# reads 0); usage stays at 4096 MiB until 00:00:18, then falls to LEFT MiB
# and stays there to 00:00:29.  Within a tolerance of LEFT MiB or more the
# task is released 3 s after its end; below, LEFT MiB leaked.
residue_stream() {
	awk -v left="$1" 'BEGIN {
		t0 = 1767225600	# 2026-01-01T00:00:00Z
		print "timestamp,host,gpu,process_id,memory_used," \
		    "memory_free,memory_total,process_name"
		for (s = 0; s < 30; s++) {
			used = s < 5 ? 0 : s < 18 ? 4096 : left
			printf "%d000000000,,0,0,%d,%d,16384,\n", t0 + s,
			    used, 16384 - used
			if (s >= 5 && s <= 15)
				printf "%d000000000,,0,4242,%d,,,train.py\n",
				    t0 + s, s < 15 ? 4096 : 0
		}
	}'
}

# name_stream NAME: a record stream (stdout) of one task named NAME (any
# bytes but a line feed; quoted for CSV here): pid 77 holds 1024 MiB on
# GPU 0 from 00:00:02 to its end at 00:00:08, when the memory is back.
name_stream() {
	awk -v name="$1" 'BEGIN {
		t0 = 1767225600	# 2026-01-01T00:00:00Z
		gsub(/"/, "\"\"", name)
		print "timestamp,host,gpu,process_id,memory_used," \
		    "memory_free,memory_total,process_name"
		for (s = 0; s < 12; s++) {
			used = s >= 2 && s < 8 ? 1024 : 0
			printf "%d000000000,,0,0,%d,%d,16384,\n", t0 + s,
			    used, 16384 - used
			if (s >= 2 && s <= 8)
				printf "%d000000000,,0,77,%d,,,\"%s\"\n",
				    t0 + s, used, name
		}
	}'
}

# iso NS: a time in ns since the epoch as a user writes it, by date(1)
# (UTC, to the ms): the times of --tasks files made from a synth truth.
iso() {
	printf '%s.%03dZ' "$(date -u -d "@$(($1 / 1000000000))" \
	    +%Y-%m-%dT%H:%M:%S)" $(($1 / 1000000 % 1000))
}

# clock_step FILE WHEN SECS: an nvidia-smi CSV log (time first, as
# 2026/01/01 00:00:00.000) with every time from WHEN on SECS earlier (later
# when SECS is negative), made with date(1): an NTP correction.
clock_step() {
	head -n 1 "$1"
	sed 1d "$1" | cut -d, -f1 | sed 's#/#-#g; s/\.[0-9]*$//' |
		awk -v w="$2" -v s="$3" '{ print $0 " UTC" ($0 < w ? "" : s > 0 ? " " s " seconds ago" : " " -s " seconds") }' |
		date -u -f - +'%Y/%m/%d %H:%M:%S.000' > times.txt
	sed 1d "$1" | cut -d, -f2- | paste -d, times.txt -
}

# same_jobs TOOL ARGS...: TOOL -j 1, -j 2, -j 7 and without -j (the count
# it chooses by its inputs) write the same bytes on stdout and on stderr,
# apart and on one file, and exit the same (threads change nothing but the
# time); then show -j 1's exit status, its output's line count and its
# stderr.
same_jobs() {
	_sj_tool=$1
	shift
	_sj_rc1=0
	"$_sj_tool" -j 1 "$@" > j1.out 2> j1.err || _sj_rc1=$?
	"$_sj_tool" -j 1 "$@" > j1.both 2>&1 || :
	for _sj_j in 2 7 default; do
		_sj_opt="--jobs $_sj_j"
		[ $_sj_j != default ] || _sj_opt=
		_sj_rc=0
		"$_sj_tool" $_sj_opt "$@" > j$_sj_j.out 2> j$_sj_j.err ||
			_sj_rc=$?
		cmp -s j1.out j$_sj_j.out ||
			die "$_sj_tool -j $_sj_j $*: stdout differs: $(diff j1.out j$_sj_j.out | head -5)"
		cmp -s j1.err j$_sj_j.err ||
			die "$_sj_tool -j $_sj_j $*: stderr differs: $(diff j1.err j$_sj_j.err | head -5)"
		expect_eq "$_sj_tool -j $_sj_j $*: exit" $_sj_rc $_sj_rc1
		"$_sj_tool" $_sj_opt "$@" > j$_sj_j.both 2>&1 || :
		cmp -s j1.both j$_sj_j.both ||
			die "$_sj_tool -j $_sj_j $*: stdout and stderr on one file differ"
	done
	echo "== $*: exit $_sj_rc1, $(wc -l < j1.out) lines"
	cat j1.err
}

# browser ARGS... URL: headless Chromium (or skip when there is none),
# nothing fetched, its own profile in $TMP; its stderr in browser.err.
browser() {
	b=$(command -v chromium || command -v chromium-browser ||
	    command -v google-chrome) || skip "chromium is not installed"
	timeout 180 "$b" --headless --no-sandbox --disable-gpu --disable-quic \
	    --no-first-run --disable-background-networking \
	    --disable-component-update --disable-sync \
	    --user-data-dir="$(mktemp -d "$TMP/chrome.XXXXXX")" "$@" 2> browser.err
}

# probe_page PAGE [BROWSER ARGS...]: PAGE with probe.js (a <script> of
# the test's) added before </body>, opened in the browser; on stdout the
# text the script left in its <pre id="probe">, as the DOM holds it.
# Call it as got=$(probe_page ...): a failure then stops the case.
probe_page() {
	page=$1
	shift
	awk '/^<\/body>/ { while ((getline l < "probe.js") > 0) print l } { print }' \
	    "$page" > probed.html
	browser "$@" --dump-dom "file://$PWD/probed.html" > dom.html ||
		die "dump-dom: exit $?: $(tail -n 3 browser.err)"
	awk '/<pre id="probe">/ { p = 1; sub(/.*<pre id="probe">/, "") }
	    p { e = sub(/<\/pre>.*/, ""); print; if (e) exit }' dom.html
}

# demo_report [REPORT OPTIONS...]: the demo scenario in demo.csv, its
# truth in truth.csv, reported as report.html: what the browser cases
# look at (on the normal build only: the page does not depend on it).
demo_report() {
	[ "$VARIANT" = normal ] ||
		skip "the browser does not depend on the build variant"
	gpumem-synth -s demo --truth truth.csv > demo.csv
	gpumem-report -q "$@" demo.csv > report.html || die "report: exit $?"
}

# poll2019 DATE GPU1ROW [PROCESSROW ...]: one poll of the plain nvidia-smi
# table of a 2019 driver (418.67, two GPUs, two rows each) as a loop logs
# it: the date line, the table with GPU 1's memory row given, the process
# rows.  table2019_log: two such polls a minute apart, a process gone in
# the second (tests/cli/read/table-layouts.sh and those that reuse its log).
poll2019() {
	date=$1 gpu1=$2; shift 2
	cat <<LOG
$date       
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 418.67       Driver Version: 418.67       CUDA Version: 10.1     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|===============================+======================+======================|
|   0  GeForce GTX 1080    Off  | 00000000:01:00.0  On |                  N/A |
| 27%   34C    P8     9W / 180W |    441MiB /  8116MiB |      1%      Default |
+-------------------------------+----------------------+----------------------+
|   1  GeForce GTX 1080    Off  | 00000000:02:00.0 Off |                  N/A |
$gpu1
+-------------------------------+----------------------+----------------------+
                                                                               
+-----------------------------------------------------------------------------+
| Processes:                                                       GPU Memory |
|  GPU       PID   Type   Process name                             Usage      |
|=============================================================================|
LOG
	printf '%s\n' "$@"
	echo '+-----------------------------------------------------------------------------+'
}

table2019_log() {
	poll2019 'Mon Jun  3 10:00:00 2019' \
	    '| 27%   30C    P8     6W / 180W |   4011MiB /  8119MiB |      0%      Default |' \
	    '|    0      1187      G   /usr/lib/xorg/Xorg                           439MiB |' \
	    '|    1     20777      C   python train.py                             4001MiB |'
	poll2019 'Mon Jun  3 10:01:00 2019' \
	    '| 27%   30C    P8     6W / 180W |     10MiB /  8119MiB |      0%      Default |' \
	    '|    0      1187      G   /usr/lib/xorg/Xorg                           439MiB |'
}

# damaged_inputs: logs damaged the ways real ones are, made here, for the
# cases that read them every way (-j, passes) against one plain read: a
# (demo) and b (multi-gpu) nvidia-smi logs, s.csv a record stream of host
# h; from them bad-rows.csv (twelve bad rows, more than the ten shown),
# bad-date.csv (a bad date, a cut last row), shuffled.csv (rows reversed,
# pairs swapped: steps back, late records), joined.csv (two recordings
# joined with cat), s-bad.csv and s-late.csv (bad lines), s-cut.csv (cut
# short) and junk.txt (not a log).
damaged_inputs() {
	gpumem-synth -s demo --nvsmi a > /dev/null
	gpumem-synth -s multi-gpu --nvsmi b > /dev/null
	gpumem-synth -s random --duration 20m --gpus 2 --host h -o s.csv
	Q=a/query-gpu.csv
	awk 'NR % 37 == 5 { sub(/ MiB/, " MB?") } { print }' $Q > bad-rows.csv
	sed '30s/2026\/01\/01/2026\/13\/01/' b/query-gpu.csv | head -c -9 > bad-date.csv
	awk 'NR == 1 { print; next } { l[NR] = $0 } END { for (i = NR; i >= 2; i -= 1) if (i % 50 < 5) print l[i - (i % 50 < 3 ? 0 : 1)]; else print l[i] }' \
	    b/compute-apps.csv > shuffled.csv
	cat $Q $Q > joined.csv
	awk 'NR % 500 == 7 { print "1,h,0,7,bad,,,x" } { print }' s.csv > s-bad.csv
	head -c -3 s.csv > s-cut.csv
	awk 'NR == 3000 { print "1,h,0,7,bad,,,x" } { print }' s.csv > s-late.csv
	printf 'not a log\n' > junk.txt
}

# scratch_make TARGET MAKE-ARGS...: make TARGET (install, uninstall) for
# the programs already built ($GPUMEM_BIN), from a scratch copy of the
# tree in ./src made on the first call: make has nothing to build and the
# source tree is not written to.  make's output is in make.out.
scratch_make() {
	if [ ! -d src ]; then
		mkdir src
		cp -R "$TESTS/../Makefile" "$TESTS/../gpumem.1" \
		    "$TESTS/../README.md" "$TESTS/../docs" "$TESTS/../contrib" \
		    "$TESTS/../formats" "$TESTS/../analyze" "$TESTS/../reports" src/
		mkdir -p src/bin
		cp "$GPUMEM_BIN"/gpumem "$GPUMEM_BIN"/gpumem-* src/bin/
	fi
	_sm_old=
	for _sm_b in src/bin/*; do
		_sm_old="$_sm_old -o bin/${_sm_b##*/}"
	done
	make -s -C src $_sm_old "$@" BIN=bin > make.out 2>&1 ||
	    { cat make.out >&2; die "make $* failed"; }
}

# contrib/pytest's plugin on the stand-in GPU: py names a python3 that has
# pytest (skip without one), the plugin is on PYTHONPATH, and ./gpuwork
# (a copy of sleep) holds 1 GiB for as long as it runs, given back at once
# (FAKE_GPU_RELEASE_MS, or the file $FAKE_GPU_RELEASE_FILE names).
pytest_plugin() {
	py=
	for p in python3 /usr/bin/python3; do
		if "$p" -c 'import pytest' 2> /dev/null; then py=$p; break; fi
	done
	[ -n "$py" ] || skip "no python3 with pytest (apt-get install python3-pytest)"
	PATH=$TESTS/tools/fakebin:$PATH
	export FAKE_GPU_COMM=gpuwork FAKE_GPU_MIB=1024 FAKE_GPU_RELEASE_MS=0
	export PYTHONPATH=$TESTS/../contrib/pytest PYTHONDONTWRITEBYTECODE=1
	cp "$(command -v sleep)" gpuwork
}

# same_in_chunks FILE [OPTIONS]: read -j 1 against read -j 2 and -j 3 of FILE
# decoded in chunks (formats/reader/chunks.h) at every chunk size of
# $sizes (GPUMEM_CHUNK_SIZE): stdout, stderr, both on one file, exit
# status; and without -j.  Prints -j 1's exit status, line count, stderr.
same_in_chunks() {
	_f=$1
	shift
	rc1=0
	gpumem-read -j 1 "$@" "$_f" > j1.out 2> j1.err || rc1=$?
	gpumem-read -j 1 "$@" "$_f" > j1.both 2>&1 || :
	for size in $sizes; do
		rc=0
		GPUMEM_CHUNK_SIZE=$size gpumem-read -j 2 "$@" "$_f" > j2.out \
		    2> j2.err || rc=$?
		cmp -s j1.out j2.out ||
			die "$_f $* (chunks of $size): stdout differs: $(diff j1.out j2.out | head -4)"
		cmp -s j1.err j2.err ||
			die "$_f $* (chunks of $size): stderr differs: $(diff j1.err j2.err | head -4)"
		expect_eq "$_f $* (chunks of $size): exit" $rc $rc1
		GPUMEM_CHUNK_SIZE=$size gpumem-read -j 2 "$@" "$_f" > j2.both \
		    2>&1 || :
		cmp -s j1.both j2.both ||
			die "$_f $* (chunks of $size): stdout and stderr on one file differ"
		# -j 3: two chunk threads, a worker between them and the
		# merge (-j 2 has none: the main thread takes the chunks).
		GPUMEM_CHUNK_SIZE=$size gpumem-read -j 3 "$@" "$_f" > j3.both \
		    2>&1 || :
		cmp -s j1.both j3.both ||
			die "$_f $* (chunks of $size): -j 3 is not -j 1"
		# Without -j: the CPUs when the file is 8 chunks or more.
		GPUMEM_CHUNK_SIZE=$size gpumem-read "$@" "$_f" > jd.both 2>&1 ||
		    :
		cmp -s j1.both jd.both ||
			die "$_f $* (chunks of $size): without -j, not -j 1's"
	done
	echo "== $_f $*: exit $rc1, $(wc -l < j1.out) lines"
	cat j1.err
}
