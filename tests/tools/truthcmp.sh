#!/bin/sh
# SPDX-License-Identifier: ISC
# truthcmp TRUTH GOT START_S [TOL_MIB]: compare a "gpumem tasks" table
# (GOT) with the ground truth of a two-loop gpumem synth scenario (TRUTH),
# whose times are the true ones: a task is found at or after it happened.
#
# Each truth task is matched to the unused found task of the same (host,
# gpu, process_id) whose start is nearest.  Then found.start - truth.start
# and found.end - truth.end must be within [0, START_S] seconds (within
# [-START_S, START_S] for a found task noted "gap": its end came after
# polls that printed nothing, lost or empty, so it is a guess), the status
# the same, peak_mib, held_mib and leaked_mib within TOL_MIB (default 64),
# (a found task noted "log-stopped" was listed at the process log's last
# poll: its end may be any time before the true one, and a leak may be a
# process still running), and, for a found task noted "gap", its end may
# also be earlier than the truth by its delay_max_s (the process may have
# lived until its memory came back),
# and for a released task the true release_delay_s within the bounds the
# table gives, [delay_min_s - 0.001, delay_max_s + 0.001], when it has
# those columns, else within its release_delay_s +- START_S.  Both tables
# must hold as many tasks.  Columns are found by their names in the
# headers; fields may be quoted as in RFC 4180.
#
# Prints each difference, then "N tasks: M match" (N in the truth, M of
# them without a difference).  Exit 0 when all match, 1 on a difference,
# 2 on trouble (usage, unreadable input, a column missing).
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	echo "usage: truthcmp.sh TRUTH GOT START_S [TOL_MIB]" >&2
	exit 2
fi
for f in "$1" "$2"; do
	[ -r "$f" ] || { echo "truthcmp.sh: $f: cannot read" >&2; exit 2; }
done
awk -v win="$3" -v tol="${4:-64}" -v tname="$1" -v gname="$2" '
# Split a CSV line into f[1..n] (quotes as in RFC 4180); return n.
function csv(line, f,    n, i, c, q, v) {
	n = 1; v = ""; q = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q) {
			if (c == "\"" && substr(line, i + 1, 1) == "\"") { v = v c; i++ }
			else if (c == "\"") q = 0
			else v = v c
		} else if (c == "\"") q = 1
		else if (c == ",") { f[n++] = v; v = "" }
		else v = v c
	}
	f[n] = v
	return n
}
# b - a in seconds, for times in ns since the epoch: split so that no
# digit is lost to floating point.
function dsec(a, b,    la, lb) {
	la = length(a); lb = length(b)
	if (la <= 9 || lb <= 9) return (b - a) / 1e9
	return (substr(b, 1, lb - 9) - substr(a, 1, la - 9)) + \
	    (substr(b, lb - 8) - substr(a, la - 8)) / 1e9
}
function abs(x) { return x < 0 ? -x : x }
function need(col, name, file) {
	if (!(name in col)) {
		printf "truthcmp.sh: %s: no column %s\n", file, name > "/dev/stderr"
		trouble = 1
		exit 2
	}
	return col[name]
}
FNR == 1 {
	n = csv($0, h)
	for (i = 1; i <= n; i++)
		if (NR == FNR) tc[h[i]] = i; else gc[h[i]] = i
	next
}
NR == FNR { t[++nt] = $0; next }
{ g[++ng] = $0 }
END {
	if (trouble) exit 2
	split("host gpu process_id start end peak_mib held_mib leaked_mib status release_delay_s", cols, " ")
	for (i = 1; i in cols; i++) {
		need(tc, cols[i], tname)
		need(gc, cols[i], gname)
	}
	bounds = ("delay_min_s" in gc) && ("delay_max_s" in gc)
	bad = 0; ok = 0
	if (nt != ng) { printf "tasks: %d in the truth, %d found\n", nt, ng; bad = 1 }
	for (i = 1; i <= nt; i++) {
		csv(t[i], a)
		key = a[tc["host"]] SUBSEP a[tc["gpu"]] SUBSEP a[tc["process_id"]]
		best = 0
		for (j = 1; j <= ng; j++) {
			if (used[j]) continue
			csv(g[j], b)
			if (b[gc["host"]] SUBSEP b[gc["gpu"]] SUBSEP b[gc["process_id"]] != key)
				continue
			d = abs(dsec(a[tc["start"]], b[gc["start"]]))
			if (best == 0 || d < bestd) { best = j; bestd = d }
		}
		if (!best) { printf "missing: %s\n", t[i]; bad = 1; continue }
		used[best] = 1
		csv(g[best], b)
		what = ""
		# The log stopped: a process it listed last may still run.
		stopped = ("note" in gc) && b[gc["note"]] ~ /(^|;)log-stopped(;|$)/
		either = stopped && a[tc["status"]] == "running" && b[gc["status"]] == "leaked"
		d = dsec(a[tc["start"]], b[gc["start"]])
		if (d < 0 || d > win) what = what sprintf(" start (%+.3f s)", d)
		if (a[tc["end"]] == "" || b[gc["end"]] == "") {
			if (a[tc["end"]] != b[gc["end"]]) what = what " end"
		} else {
			d = dsec(a[tc["end"]], b[gc["end"]])
			# After polls that printed nothing (note gap) the
			# end is a guess: lost polls and empty ones look alike.
			gap = ("note" in gc) && b[gc["note"]] ~ /(^|;)gap(;|$)/
			lo = gap ? -win : 0
			if (gap && ("delay_max_s" in gc) && b[gc["delay_max_s"]] != "")
				lo -= b[gc["delay_max_s"]]
			if (stopped) lo = d
			if (d < lo || d > win)
				what = what sprintf(" end (%+.3f s)", d)
		}
		if (a[tc["status"]] != b[gc["status"]] && !either) what = what " status"
		split("peak_mib held_mib leaked_mib", mib, " ")
		for (k = 1; k <= 3 - either; k++) {
			x = a[tc[mib[k]]]; y = b[gc[mib[k]]]
			if (x == "" || y == "") { if (x != y) what = what " " mib[k] }
			else if (abs(x - y) > tol) what = what " " mib[k]
		}
		if (a[tc["status"]] == "released" && b[gc["status"]] == "released") {
			x = a[tc["release_delay_s"]]
			if (bounds) {
				lo = b[gc["delay_min_s"]]; hi = b[gc["delay_max_s"]]
				if (lo == "" || hi == "" || x < lo - 0.001 || x > hi + 0.001)
					what = what sprintf(" release_delay_s (%s not in [%s, %s])", x, lo, hi)
			} else if (abs(x - b[gc["release_delay_s"]]) > win)
				what = what sprintf(" release_delay_s (%s, found %s)", x, b[gc["release_delay_s"]])
		}
		if (what != "") {
			printf "differs in%s:\n  truth %s\n  found %s\n", what, t[i], g[best]
			bad = 1
		} else
			ok++
	}
	for (j = 1; j <= ng; j++)
		if (!used[j]) { printf "extra: %s\n", g[j]; bad = 1 }
	printf "%d tasks: %d match\n", nt, ok
	exit bad
}' "$1" "$2"
