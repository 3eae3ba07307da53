#!/bin/sh
# SPDX-License-Identifier: ISC
# tests/coverage.sh [--only PATTERN] [--add | --report] BUILDDIR: line and
# branch coverage of the test suite (`make coverage`).
#
# BUILDDIR is a COVERAGE=1 build (build/cov).  The counters are cleared,
# the suite runs on BUILDDIR/bin (tests/run.sh, its output also in
# BUILDDIR/tests.log), lcov reads the counters into BUILDDIR/coverage.info
# and writes the report into BUILDDIR/html, and a table on stdout gives
# lines and branches per folder of the tree (commands at the top of
# formats/, analyze/ and reports/; library code in their subfolders),
# then formats/ and analyze/ as a whole.  --only runs only the cases whose
# path matches (tests/run.sh --only); --add keeps the counters of the
# runs before (what a few new cases add to a full run); --report only
# reads the counters.  Exit as the suite did (2 when lcov fails).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
only= clear=1 run=1
while [ $# -gt 0 ]; do
	case $1 in
	--only) only=$2; shift 2 ;;
	--add) clear=0; shift ;;
	--report) clear=0 run=0; shift ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || {
	echo "usage: tests/coverage.sh [--only PATTERN] [--add | --report] BUILDDIR" >&2
	exit 2
}
build=$(cd "$1" && pwd) || exit 2
[ -x "$build/bin/gpumem" ] || {
	echo "coverage: $build/bin/gpumem: not built (make COVERAGE=1 all tests)" >&2
	exit 2
}
lcov="lcov --quiet --rc lcov_branch_coverage=1"

rc=0
if [ $clear -eq 1 ]; then
	find "$build" -name '*.gcda' -exec rm -f {} + || exit 2
fi
if [ $run -eq 1 ]; then
	# The runner's status, through the pipe into tee.
	{ sh "$top/tests/run.sh" ${only:+--only "$only"} "$build/bin" \
	    "$build"; echo $? >"$build/tests.rc"; } | tee "$build/tests.log"
	rc=$(cat "$build/tests.rc")
fi

# Our sources only: not the tests' own programs, not the system headers.
$lcov --capture --directory "$build" --base-directory "$top" \
    --output-file "$build/all.info" 2>"$build/lcov.log" &&
$lcov --extract "$build/all.info" "$top/formats/*" "$top/analyze/*" \
    "$top/reports/*" "$top/gpumem.c" --output-file "$build/coverage.info" \
    2>>"$build/lcov.log" &&
genhtml --quiet --branch-coverage --prefix "$top" --output-directory \
    "$build/html" "$build/coverage.info" 2>>"$build/lcov.log" || {
	cat "$build/lcov.log" >&2
	echo "coverage: lcov failed" >&2
	exit 2
}

# The table: an lcov record is SF:<file>, then LF/LH (lines found, hit)
# and BRF/BRH (branches found, hit), ended by end_of_record.
awk -v top="$top/" '
function pct(h, f) { return f ? sprintf("%5.1f%%", 100 * h / f) : "    -" }
function row(name, k) {
	printf "%-22s %6d/%-6d %s  %6d/%-6d %s\n", name, lh[k], lf[k],
	    pct(lh[k], lf[k]), bh[k], bf[k], pct(bh[k], bf[k])
}
function add(k, a, b, c, d) {
	if (!(k in lf))
		keys[++n] = k
	lf[k] += a; lh[k] += b; bf[k] += c; bh[k] += d
}
/^SF:/ {
	f = substr($0, 4)
	if (index(f, top) == 1)
		f = substr(f, length(top) + 1)
	k = f
	sub(/\/[^\/]*$/, "", k)
	if (k == f)
		k = "gpumem.c"
	else if (k !~ /\//)
		k = k " (commands)"
	LF = LH = BRF = BRH = 0
}
/^LF:/ { LF = substr($0, 4) }
/^LH:/ { LH = substr($0, 4) }
/^BRF:/ { BRF = substr($0, 5) }
/^BRH:/ { BRH = substr($0, 5) }
/^end_of_record/ {
	add(k, LF, LH, BRF, BRH)
	split(f, part, "/")
	if (part[1] == "formats" || part[1] == "analyze")
		add(part[1] "/ (all)", LF, LH, BRF, BRH)
	add("total", LF, LH, BRF, BRH)
}
END {
	printf "%-22s %20s  %20s\n", "folder", "lines", "branches"
	# Folders in name order, the sums last.
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (keys[j] < keys[i]) {
				t = keys[i]; keys[i] = keys[j]; keys[j] = t
			}
	for (i = 1; i <= n; i++)
		if (keys[i] !~ /\(all\)$/ && keys[i] != "total")
			row(keys[i], keys[i])
	row("analyze/ (all)", "analyze/ (all)")
	row("formats/ (all)", "formats/ (all)")
	row("total", "total")
}' "$build/coverage.info"
echo "coverage: report in $build/html/index.html"
exit "$rc"
