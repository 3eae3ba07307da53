#!/bin/sh
# SPDX-License-Identifier: ISC
# taskcmp TRUTH GOT [INTERVAL_S [TOL_MIB]]: compare a task table with the
# ground truth gpumem synth wrote: the same tasks, times within one
# sampling interval (default 1 s), MiB within the tolerance (default 64),
# the same status.  Prints each difference; exit 1 when there is one.
truth=$1 got=$2 iv=${3:-1} tol=${4:-64}
awk -F, -v iv="$iv" -v tol="$tol" '
function abs(x) { return x < 0 ? -x : x }
function near(a, b, lim) {
	if (a == "" || b == "") return a == b
	return abs(a - b) <= lim
}
FNR == 1 { next }
NR == FNR { t[++nt] = $0; next }
{ g[++ng] = $0 }
END {
	bad = 0
	if (nt != ng) { printf "tasks: %d in the truth, %d found\n", nt, ng; bad = 1 }
	ns = iv * 1e9
	for (i = 1; i <= nt; i++) {
		split(t[i], a, ",")
		found = 0
		for (j = 1; j <= ng; j++) {
			if (used[j]) continue
			split(g[j], b, ",")
			if (a[1] == b[1] && a[2] == b[2] && a[3] == b[3] && near(a[5], b[5], ns)) {
				found = j
				break
			}
		}
		if (!found) { printf "missing: %s\n", t[i]; bad = 1; continue }
		used[found] = 1
		what = ""
		if (!near(a[6], b[6], ns)) what = what " end"
		if (!near(a[7], b[7], tol)) what = what " peak_mib"
		if (!near(a[8], b[8], tol)) what = what " held_mib"
		if (!near(a[9], b[9], ns)) what = what " release"
		if (!near(a[10], b[10], iv)) what = what " release_delay_s"
		if (!near(a[11], b[11], tol)) what = what " leaked_mib"
		if (a[12] != b[12]) what = what " status"
		if (what != "") {
			printf "differs in%s:\n  truth %s\n  found %s\n", what, t[i], g[found]
			bad = 1
		}
	}
	exit bad
}' "$truth" "$got"
