# SPDX-License-Identifier: ISC
# tests/lib.sh: helpers for end-to-end cases (sourced: . "$TESTS/lib.sh").

# Skip this case, saying why (exit 77).
skip() {
	echo "$*"
	exit 77
}

# The shared corpus, or skip when it is absent (a user's clone has none).
need_corpus() {
	[ -n "$CORPUS" ] && [ -d "$CORPUS/$1" ] ||
		skip "../shared/corpus/$1 is absent"
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
	"$@"
	rc=$?
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

# Background processes of the case, killed when it ends however it ends.
bg_pids=
bg_add() {
	bg_pids="$bg_pids $1"
	trap 'kill $bg_pids 2>/dev/null' EXIT
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

# lo_capture FILE FILTER: tcpdump on the loopback interface into FILE, in
# the background (cap_pid); the case is skipped when tcpdump is missing or
# may not capture there.  Packets reach FILE within a second or so (the
# kernel hands them over in blocks: no --immediate-mode, whose ring of
# snapshot-sized slots overflows on a burst of datagrams when the machine
# is busy): wait for what must be in it before lo_capture_stop.
lo_capture() {
	command -v tcpdump > /dev/null || skip "tcpdump is not installed"
	rm -f "$1" "$1.err"
	# Not the case's fds 3-5: a FIFO it writes must see its end.
	tcpdump -i lo -n -U -B 65536 -Z "$(id -un)" \
	    -w "$1" "$2" 2> "$1.err" 3>&- 4>&- 5>&- &
	cap_pid=$!
	cap_file=$1
	bg_add $cap_pid
	wait_for 30 _lo_capture_ready || die "tcpdump did not start"
	grep -q 'listening on' "$1.err" ||
		skip "cannot capture on lo: $(head -n 1 "$1.err")"
}
_lo_capture_ready() {
	grep -q 'listening on' "$cap_file.err" 2> /dev/null ||
	    ! kill -0 $cap_pid 2> /dev/null
}

# lo_capture_stop: stop the capture (tcpdump drops what it has not
# written yet: wait for what must be in it first) and say what it dropped.
lo_capture_stop() {
	kill -INT $cap_pid
	wait $cap_pid
	! grep -q '[1-9][0-9]* packets* dropped by kernel' "$cap_file.err" ||
		die "tcpdump: $(grep 'dropped by kernel' "$cap_file.err")"
}

# iso NS: a time in ns since the epoch as a user writes it, by date(1)
# (UTC, to the ms): the times of --tasks files made from a synth truth.
iso() {
	printf '%s.%03dZ' "$(date -u -d "@$(($1 / 1000000000))" \
	    +%Y-%m-%dT%H:%M:%S)" $(($1 / 1000000 % 1000))
}
