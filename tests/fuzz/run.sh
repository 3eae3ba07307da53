#!/bin/sh
# SPDX-License-Identifier: ISC
# tests/fuzz/run.sh: run fuzz targets built with libFuzzer (make FUZZ=1,
# see the Makefile's `fuzz'), each for a set time, and say for each how
# far it got and what it found.
#
#	sh tests/fuzz/run.sh [-t SECONDS] [-j JOBS] [-o OUTDIR] BUILDDIR [NAME...]
#
# Each target starts from its seeds (corpus/<name>/, finds/<name>/ and the
# shared corpus folders tests/fuzz/targets names, read in place) and keeps
# what it learns in OUTDIR/corpus/<name>/ (BUILDDIR/out by default), so a
# second run goes on from there.  A crash, leak, timeout or out-of-memory
# input is written to OUTDIR/crash/<name>/; the log of each run is
# OUTDIR/log/<name>.log.  One line per target:
#
#	xml: 2051234 runs in 600 s (3418/s), cov 1432, ft 5121, corpus 612: nothing found
#
# Exit status: 0 when nothing was found, 1 when something was, 2 trouble.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=60 jobs=1 outdir= one=
while [ $# -gt 0 ]; do
	case $1 in
	-t) secs=$2; shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	-o) outdir=$2; shift 2 ;;
	--one) one=1; shift ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: sh tests/fuzz/run.sh [-t SECONDS] [-j JOBS] [-o OUTDIR] BUILDDIR [NAME...]" >&2; exit 2; }
build=$1
shift
[ -n "$outdir" ] || outdir=$build/out
shared=$top/tests/corpus

# Run one target; print its line; exit 1 when it found something.
run_one() {
	name=$1
	prog=$build/fuzz/fuzz_$name
	[ -x "$prog" ] || { echo "$name: no $prog (make FUZZ=1 fuzz-build)"; return 2; }
	row=$(awk -v n="$name" '$1 == n { $1 = ""; print }' "$top/tests/fuzz/targets")
	maxlen=16384
	[ -n "$row" ] && maxlen=$(echo $row | cut -d' ' -f1)
	seeds="$top/tests/fuzz/corpus/$name"
	[ -d "$top/tests/fuzz/finds/$name" ] && seeds="$seeds $top/tests/fuzz/finds/$name"
	for d in $(echo $row | cut -s -d' ' -f2-); do
		[ "$d" != - ] && [ -d "$shared/$d" ] &&
			seeds="$seeds $shared/$d"
	done
	mkdir -p "$outdir/corpus/$name" "$outdir/crash/$name" "$outdir/log"
	log=$outdir/log/$name.log
	# stderr of the target (gpumem's messages) is closed; libFuzzer and
	# the sanitizers still report on their own copy of it.
	"$prog" -max_total_time="$secs" -max_len="$maxlen" -timeout=10 \
	    -rss_limit_mb=2048 -close_fd_mask=2 -print_final_stats=1 \
	    -artifact_prefix="$outdir/crash/$name/" \
	    "$outdir/corpus/$name" $seeds > "$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
	last=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
	cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\).*/\1/p')
	finds=$(ls "$outdir/crash/$name" 2>/dev/null | tr '\n' ' ')
	rate=
	[ -n "$took" ] && [ "${took:-0}" -gt 0 ] && rate=" ($((${runs:-0} / took))/s)"
	line="$name: ${runs:-?} runs in ${took:-?} s$rate, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}"
	if [ -n "$finds" ] || [ $rc -ne 0 ]; then
		echo "$line: FOUND ${finds:-exit $rc} (log: $log)"
		return 1
	fi
	echo "$line: nothing found"
	return 0
}

if [ -n "$one" ]; then
	run_one "$1"
	exit $?
fi
if [ $# -eq 0 ]; then
	for src in "$top"/tests/fuzz/fuzz_*.c; do
		n=$(basename "$src" .c)
		set -- "$@" "${n#fuzz_}"
	done
fi
printf '%s\n' "$@" | xargs -P "$jobs" -n 1 sh "$0" --one -t "$secs" \
    -o "$outdir" "$build"
rc=$?
# xargs says 123 when any run exited 1-125.
[ $rc -eq 0 ] && exit 0
[ $rc -eq 123 ] && exit 1
exit 2
