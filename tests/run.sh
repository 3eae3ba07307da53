#!/bin/sh
# SPDX-License-Identifier: ISC
# tests/run.sh: run the whole test suite against one or more builds.
#
#   sh tests/run.sh [-j N] BINDIR BUILDDIR [BINDIR BUILDDIR ...]
#   sh tests/run.sh --update BINDIR BUILDDIR     rewrite expectation files
#   sh tests/run.sh --only PATTERN BINDIR BUILDDIR
#
# Unit tests are the programs BUILDDIR/tests/*; end-to-end cases are the
# scripts tests/cli/<tool>/<case>.sh, run with the build's binaries first
# on PATH, in a fresh temporary directory, with LC_ALL=C and TZ=UTC, under
# `sh -eu`: a command that fails unchecked fails the case (a command
# expected to fail is written `! cmd` or `cmd || rc=$?`), and so does an
# unset variable.  A
# case passes when it exits as <case>.sh.exit says (0 when absent) and
# its stdout and stderr equal <case>.sh.stdout and <case>.sh.stderr where
# those exist.  A case that exits 77 is skipped (it says why on stdout).
#
# -j N runs N unit programs and cases at once (default: the CPUs online,
# or TEST_JOBS); what each prints is shown in the order of a run of one
# at a time, as each is done, and the counts are the same.  A case whose
# script has a line "# alone: REASON" runs with nothing beside it, before
# the others (a timing it asserts, or a resource of the machine it holds).
# A run of 20 cases or more lists its 10 slowest (the time budget of CI
# is spent there).  When cases were skipped, a line names their groups
# (cli/<group>/) with a count each, and tests/deps.sh --hint names the
# packages missing and the command that installs them.  The last line is
# always "N passed, N failed", with ", N skipped" after it when some were.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
update=0
only=
jobs=${TEST_JOBS:-$(nproc 2> /dev/null || echo 1)}
while [ $# -gt 0 ]; do
	case $1 in
	--update) update=1; shift ;;
	--only) only=$2; shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	-*) echo "tests/run.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "usage: tests/run.sh [--update] [--only PAT] [-j N] BINDIR BUILDDIR ..." >&2; exit 2; }
case $jobs in
''|*[!0-9]*|0) echo "tests/run.sh: -j wants a number of jobs, not '$jobs'" >&2; exit 2 ;;
esac

export LC_ALL=C TZ=UTC
export TESTS="$top/tests"
# The real-world logs and captures the cases read (tests/corpus/README).
export CORPUS="$top/tests/corpus"
# gpumem tools piped into each other pass records in a binary form (rec.h)
# when the reader has started by the time the writer looks; which one a
# pipeline gets is then a matter of timing, and a summary line names it.
# Tests get text unless they ask (cli/read/binary-stream.sh does).
export GPUMEM_STREAM=text
# Sanitizers: any report is a failure (the output would differ too).
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98

tmproot=$(mktemp -d "${TMPDIR:-/tmp}/gpumem-tests.XXXXXX")
workers=
trap 'rm -rf "$tmproot"' EXIT
trap '[ -z "$workers" ] || kill $workers 2> /dev/null; exit 130' INT TERM
mkdir "$tmproot/claim" "$tmproot/res"

# Every job writes what it shows people into res/N.out and its counts
# into res/N.st, a line each: "pass N", "fail N TEXT", "skip", "time S
# NAME"; res/N.st appears whole (renamed into place) when the job is done.

# run_unit N VARIANT BUILD PROG
run_unit() {
	_st=$tmproot/res/$1.tmp variant=$2 build=$3 prog=$4
	name=unit/$(basename "$prog")
	mkdir -p "$tmproot/w$1"
	out=$(cd "$tmproot/w$1" && "$prog" 2>&1)
	rc=$?
	rm -rf "$tmproot/w$1"
	line=$(printf '%s\n' "$out" | tail -n 1)
	p=$(printf '%s\n' "$line" | sed -n 's/^# .*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(printf '%s\n' "$line" | sed -n 's/^# .*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	if [ -z "$p" ]; then
		printf '%s\n' "$out" | tail -n 20
		echo "fail 1 $name ($variant): crashed or printed no count (exit $rc)" > "$_st"
		echo "FAIL $name ($variant)"
		return
	fi
	echo "pass $p" > "$_st"
	if [ "$f" -gt 0 ] || [ $rc -ne 0 ]; then
		printf '%s\n' "$out" | grep -v '^ok' | tail -n 30
		echo "fail $((f > 0 ? f : 1)) $name ($variant): $f assertions failed" >> "$_st"
		echo "FAIL $name ($variant)"
	fi
}

# run_case N VARIANT BIN BUILD SCRIPT
run_case() {
	_st=$tmproot/res/$1.tmp variant=$2 bin=$3 build=$4 script=$5
	rel=${script#"$top"/tests/}
	name=${rel%.sh}
	w=$tmproot/w$1
	dir=$w/case
	mkdir -p "$dir"
	t0=$(date +%s)
	# FAKE_GPU_SCOPE: the stand-in nvidia-smi counts this case's
	# processes only, not those of other runs on the machine.
	(cd "$dir" && PATH="$bin:$PATH" GPUMEM_BIN="$bin" TMP="$dir" \
	    TOOLS="$build/tools" VARIANT="$variant" FAKE_GPU_SCOPE="$dir" \
	    sh -eu "$script" >"$w/out" 2>"$w/err" </dev/null)
	rc=$?
	echo "time $(($(date +%s) - t0)) $name ($variant)" > "$_st"
	if [ $rc -eq 77 ]; then
		echo "skip $name" >> "$_st"
		echo "skip $name ($variant): $(head -n 1 "$w/out")"
		rm -rf "$w"
		return
	fi
	if [ $update -eq 1 ]; then
		[ -f "$script.stdout" ] && cp "$w/out" "$script.stdout"
		[ -f "$script.stderr" ] && cp "$w/err" "$script.stderr"
		[ $rc -ne 0 ] || [ -f "$script.exit" ] && echo $rc > "$script.exit"
	fi
	want=0
	[ -f "$script.exit" ] && want=$(cat "$script.exit")
	ok=1 why=
	if [ "$rc" != "$want" ]; then
		ok=0 why="exit $rc, expected $want"
	fi
	if [ -f "$script.stdout" ] && ! cmp -s "$w/out" "$script.stdout"; then
		ok=0 why="$why stdout differs"
		diff -u "$script.stdout" "$w/out" | head -n 20
	fi
	if [ -f "$script.stderr" ] && ! cmp -s "$w/err" "$script.stderr"; then
		ok=0 why="$why stderr differs"
		diff -u "$script.stderr" "$w/err" | head -n 20
	fi
	if [ $ok -eq 1 ]; then
		echo "pass 1" >> "$_st"
	else
		[ -f "$script.stderr" ] || head -n 20 "$w/err"
		[ -f "$script.stdout" ] || head -n 20 "$w/out"
		echo "fail 1 $name ($variant):$why" >> "$_st"
		echo "FAIL $name ($variant):$why"
	fi
	rm -rf "$w"
}

# run_job N: job N of the list, its output and counts into res/.
run_job() {
	# shellcheck disable=SC2086
	set -- $1 $(sed -n "$1p" "$tmproot/jobs")
	_n=$1 kind=$2
	shift 2
	if [ "$kind" = unit ]; then
		run_unit "$_n" "$@"
	else
		shift	# alone or pool
		run_case "$_n" "$@"
	fi > "$tmproot/res/$_n.out" 2>&1
	mv "$tmproot/res/$_n.tmp" "$tmproot/res/$_n.st"
}

# The list of jobs, a line each: "unit VARIANT BUILD PROG" or "case
# alone|pool VARIANT BIN BUILD SCRIPT" (paths without blanks: the tree's
# own and mktemp's).
: > "$tmproot/jobs"
while [ $# -ge 2 ]; do
	bin=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
	shift 2
	case $bin$build in
	*[[:space:]]*) echo "tests/run.sh: a build's path has a blank: $bin $build" >&2; exit 2 ;;
	esac
	# The coverage build (make coverage) is slow like the sanitizer
	# build: cases that size their inputs by the variant keep them small.
	case $build in
	*/san) variant=asan+ubsan ;;
	*/cov) variant=coverage ;;
	*) variant=normal ;;
	esac
	echo "banner == $variant build: $bin" >> "$tmproot/jobs"
	for prog in "$build"/tests/*; do
		[ -x "$prog" ] || continue
		case unit/$(basename "$prog") in *$only*) ;; *) continue ;; esac
		echo "unit $variant $build $prog" >> "$tmproot/jobs"
	done
	for script in "$top"/tests/cli/*/*.sh; do
		[ -f "$script" ] || continue
		case $script in *$only*) ;; *) continue ;; esac
		how=pool
		grep -q '^# alone: ' "$script" && how=alone
		echo "case $how $variant $bin $build $script" >> "$tmproot/jobs"
	done
done
total=$(wc -l < "$tmproot/jobs")

# Banners are done at once; the cases that run alone run first, one at a
# time, before any other job starts.
n=0
while IFS= read -r line; do
	n=$((n + 1))
	case $line in
	banner*)
		echo "${line#banner }" > "$tmproot/res/$n.out"
		: > "$tmproot/res/$n.st" ;;
	"case alone "*)
		mkdir "$tmproot/claim/$n" && (run_job $n < /dev/null) ;;
	esac
done < "$tmproot/jobs"

# The rest: JOBS workers, each takes the next job nobody has claimed
# (mkdir is atomic), until none is left.
worker() {
	_i=1
	while [ $_i -le $total ]; do
		if mkdir "$tmproot/claim/$_i" 2> /dev/null; then
			[ -f "$tmproot/res/$_i.st" ] || run_job $_i
		fi
		_i=$((_i + 1))
	done
}
w=0
while [ $w -lt "$jobs" ]; do
	worker < /dev/null &
	workers="$workers $!"
	w=$((w + 1))
done

# Shown in the list's order, each as soon as it and all before it are
# done; counted likewise.
passed=0 failed=0 skipped=0
failures=
: > "$tmproot/skips"
: > "$tmproot/times"
i=1
while [ $i -le $total ]; do
	if [ ! -f "$tmproot/res/$i.st" ]; then
		sleep 1
		continue
	fi
	cat "$tmproot/res/$i.out"
	while read -r what num rest; do
		case $what in
		pass) passed=$((passed + num)) ;;
		fail) failed=$((failed + num)); failures="$failures
  $rest" ;;
		skip) skipped=$((skipped + 1))
			echo "$num" >> "$tmproot/skips" ;;
		time) echo "$num $rest" >> "$tmproot/times" ;;
		esac
	done < "$tmproot/res/$i.st"
	i=$((i + 1))
done
wait

if [ "$(wc -l < "$tmproot/times")" -ge 20 ]; then
	echo "slowest (seconds):"
	sort -rn "$tmproot/times" | head -n 10 | sed 's/^/  /'
fi
[ $failed -gt 0 ] && printf 'failed:%s\n' "$failures"
if [ $skipped -gt 0 ]; then
	# cli/pcap/x -> pcap; a line "skipped: all 2, pcap 1 (...)".
	printf 'skipped: %s (each skip line above says why)\n' "$(
	    sed 's|^cli/||; s|/.*||' "$tmproot/skips" | sort | uniq -c |
	    awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }')"
	sh "$top/tests/deps.sh" --hint
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ $failed -eq 0 ]
