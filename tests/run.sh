#!/bin/sh
# SPDX-License-Identifier: ISC
# tests/run.sh: run the whole test suite against one or more builds.
#
#   sh tests/run.sh BINDIR BUILDDIR [BINDIR BUILDDIR ...]
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
# A run of 20 cases or more lists its 10 slowest (the time budget of CI
# is spent there).  The last line is always "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
update=0
only=
while [ $# -gt 0 ]; do
	case $1 in
	--update) update=1; shift ;;
	--only) only=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "usage: tests/run.sh [--update] [--only PAT] BINDIR BUILDDIR ..." >&2; exit 2; }

passed=0 failed=0 skipped=0
failures=
export LC_ALL=C TZ=UTC
export TESTS="$top/tests"
# The shared corpus beside the tree, unless CORPUS names it (a copy of the
# tree elsewhere: tests/mutants/run.sh).
if [ -n "${CORPUS:-}" ]; then
	:
elif [ -d "$top/../shared/corpus" ]; then
	CORPUS=$(cd "$top/../shared/corpus" && pwd)
else
	CORPUS=
fi
export CORPUS
# gpumem tools piped into each other pass records in a binary form (rec.h)
# when the reader has started by the time the writer looks; which one a
# pipeline gets is then a matter of timing, and a summary line names it.
# Tests get text unless they ask (cli/read/binary-stream.sh does).
export GPUMEM_STREAM=text
# Sanitizers: any report is a failure (the output would differ too).
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98

tmproot=$(mktemp -d "${TMPDIR:-/tmp}/gpumem-tests.XXXXXX")
trap 'rm -rf "$tmproot"' EXIT INT TERM

pass() { passed=$((passed + 1)); }
fail() {
	failed=$((failed + 1))
	failures="$failures
  $1"
	echo "FAIL $1"
}

run_units() {
	variant=$1 build=$2
	for prog in "$build"/tests/*; do
		[ -x "$prog" ] || continue
		name=unit/$(basename "$prog")
		case $name in *$only*) ;; *) continue ;; esac
		out=$(cd "$tmproot" && "$prog" 2>&1)
		rc=$?
		line=$(printf '%s\n' "$out" | tail -n 1)
		p=$(printf '%s\n' "$line" | sed -n 's/^# .*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
		f=$(printf '%s\n' "$line" | sed -n 's/^# .*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
		if [ -z "$p" ]; then
			printf '%s\n' "$out" | tail -n 20
			fail "$name ($variant): crashed or printed no count (exit $rc)"
			continue
		fi
		passed=$((passed + p))
		if [ "$f" -gt 0 ] || [ $rc -ne 0 ]; then
			printf '%s\n' "$out" | grep -v '^ok' | tail -n 30
			failed=$((failed + (f > 0 ? f : 1)))
			failures="$failures
  $name ($variant): $f assertions failed"
			echo "FAIL $name ($variant)"
		fi
	done
}

run_case() {
	variant=$1 bin=$2 script=$3
	rel=${script#"$top"/tests/}
	name=${rel%.sh}
	dir=$tmproot/case
	rm -rf "$dir"
	mkdir -p "$dir"
	t0=$(date +%s)
	# FAKE_GPU_SCOPE: the stand-in nvidia-smi counts this case's
	# processes only, not those of other runs on the machine.
	(cd "$dir" && PATH="$bin:$PATH" GPUMEM_BIN="$bin" TMP="$dir" \
	    TOOLS="$build/tools" VARIANT="$variant" FAKE_GPU_SCOPE="$dir" \
	    sh -eu "$script" >"$tmproot/out" 2>"$tmproot/err" </dev/null)
	rc=$?
	echo "$(($(date +%s) - t0)) $name ($variant)" >> "$tmproot/times"
	if [ $rc -eq 77 ]; then
		skipped=$((skipped + 1))
		echo "skip $name ($variant): $(head -n 1 "$tmproot/out")"
		return
	fi
	if [ $update -eq 1 ]; then
		[ -f "$script.stdout" ] && cp "$tmproot/out" "$script.stdout"
		[ -f "$script.stderr" ] && cp "$tmproot/err" "$script.stderr"
		[ $rc -ne 0 ] || [ -f "$script.exit" ] && echo $rc > "$script.exit"
	fi
	want=0
	[ -f "$script.exit" ] && want=$(cat "$script.exit")
	ok=1 why=
	if [ "$rc" != "$want" ]; then
		ok=0 why="exit $rc, expected $want"
	fi
	if [ -f "$script.stdout" ] && ! cmp -s "$tmproot/out" "$script.stdout"; then
		ok=0 why="$why stdout differs"
		diff -u "$script.stdout" "$tmproot/out" | head -n 20
	fi
	if [ -f "$script.stderr" ] && ! cmp -s "$tmproot/err" "$script.stderr"; then
		ok=0 why="$why stderr differs"
		diff -u "$script.stderr" "$tmproot/err" | head -n 20
	fi
	if [ $ok -eq 1 ]; then
		pass
	else
		[ -f "$script.stderr" ] || head -n 20 "$tmproot/err"
		[ -f "$script.stdout" ] || head -n 20 "$tmproot/out"
		fail "$name ($variant):$why"
	fi
}

while [ $# -ge 2 ]; do
	bin=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
	shift 2
	# The coverage build (make coverage) is slow like the sanitizer
	# build: cases that size their inputs by the variant keep them small.
	case $build in
	*/san) variant=asan+ubsan ;;
	*/cov) variant=coverage ;;
	*) variant=normal ;;
	esac
	echo "== $variant build: $bin"
	run_units "$variant" "$build"
	for script in "$top"/tests/cli/*/*.sh; do
		[ -f "$script" ] || continue
		case $script in *$only*) ;; *) continue ;; esac
		run_case "$variant" "$bin" "$script"
	done
done

if [ -f "$tmproot/times" ] && [ "$(wc -l < "$tmproot/times")" -ge 20 ]; then
	echo "slowest (seconds):"
	sort -rn "$tmproot/times" | head -n 10 | sed 's/^/  /'
fi
[ $skipped -gt 0 ] && echo "$skipped skipped"
[ $failed -gt 0 ] && printf 'failed:%s\n' "$failures"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
