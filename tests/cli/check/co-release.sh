# Two tasks end in the same poll and only part of their memory comes
# back: the data cannot tell whose stayed.  Both rows are noted
# ambiguous (the one blamed too), and check names every candidate in
# its verdict, not the one it happened to blame.  A recording made with
# awk, 1 s polls: a.py (pid 100) holds 2048 MiB from 10 s, b.py (pid
# 200) 2048 MiB from 12 s; both are gone at 31 s, and usage falls by
# 2048 MiB only.
. "$TESTS/lib.sh"
recording '
	for (s = 0; s < 60; s++) {
		dev(s, (s >= 10 && s <= 30 ? 2048 : 0) + (s >= 12 ? 2048 : 0))
		if (s >= 10 && s <= 30)
			proc(s + 0.5, 100, 2048, "a.py")
		if (s >= 12 && s <= 30)
			proc(s + 0.5, 200, 2048, "b.py")
		if (s == 31) {
			proc(s + 0.5, 100, 0, "a.py")
			proc(s + 0.5, 200, 0, "b.py")
		}
	}' > co.csv
gpumem-tasks -q co.csv | cut -d, -f3,12,15
rc=0
gpumem-check co.csv 2> check.err || rc=$?
expect_eq "check: exit" $rc 1
grep max_leak_mib check.err
