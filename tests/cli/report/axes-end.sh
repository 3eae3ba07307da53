# Axes end at the data: the time axis of plot, gantt and the report's
# charts runs from the first sample to the last (00:00:00 to 00:01:40),
# no room past it; a Gantt text that would run past the end goes before
# its task's start (it would lie on the colour bar), on its bar when
# there is no room there either.  The recording (awk): train.py (pid 500,
# 4096 MiB) from 40 s to 90 s, its memory back at 97 s (a 6 s delay
# whose text cannot follow its bar), leak.py (pid 600, 2048 MiB) from
# 60 s to 97 s, never back (its bar too short for its text).
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
recording '
	for (s = 0; s <= 100; s++) {
		dev(s, (s >= 40 && s < 97 ? 4096 : 0) + (s >= 60 ? 2048 : 0))
		if (s >= 40 && s <= 91)
			proc(s, 500, s <= 90 ? 4096 : 0, "train.py")
		if (s >= 60 && s <= 98)
			proc(s, 600, s <= 97 ? 2048 : 0, "leak.py")
	}' > rec.csv
range='set xrange [1767225600.000:1767225700.000]'
gpumem-plot --script --utc rec.csv > plot.gp
expect_eq "plot: x range" "$(grep xrange plot.gp)" "$range"
gpumem-gantt --script --utc --size 1000x300 rec.csv > gantt.gp
expect_eq "gantt: x range" "$(grep xrange gantt.gp)" "$range"
# The texts' blocks, whole: which side of its bar each text takes.
awk '/^\$.*notes.* << EOD$/, /^EOD$/' gantt.gp
# The report's charts: the scripts its gnuplot is given.
real=$(command -v gnuplot)
mkdir fake
cat > fake/gnuplot <<SH
#!/bin/sh
f=\$(mktemp -p "$PWD" script.XXXXXX)
cat > "\$f"
exec "$real" "\$f"
SH
chmod +x fake/gnuplot
PATH=$PWD/fake:$PATH gpumem-report -q --utc rec.csv > r.html
n=$(cat script.* | grep -c '^set xrange' || :)
expect_eq "report: charts" "$n" 2
expect_eq "report: x ranges" "$(cat script.* | grep '^set xrange' | sort -u)" \
    "$range"
