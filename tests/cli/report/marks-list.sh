# The numbered markers of the usage chart and the list that says what
# they are.  Three tasks built with awk, their truth by construction:
# prep.py (pid 101) holds 2048 MiB and ends at 00:00:20, its memory back
# at 00:00:25; leaky.py (102) ends at 00:00:30 and its 1024 MiB never
# come back; eval.py (103) holds 4096 MiB to 00:00:40, back at once.
# Markers are numbered in order of their task's end: the report's list
# under the chart (an <ol>, each item its number), plot's list on
# standard error, and the tooltip (SVG <title>) of each marker's box in
# the SVG plot writes, the box that holds the same number, all say the
# same, exactly.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
command -v python3 > /dev/null || skip "python3 is not installed"
recording '
	for (s = 0; s < 60; s++) {
		dev(s, 300 + (s >= 2 && s < 25 ? 2048 : 0) + (s >= 5 ? 1024 : 0) + (s >= 25 && s < 40 ? 4096 : 0))
		if (s >= 2 && s <= 20)
			proc(s, 101, s < 20 ? 2048 : 0, "prep.py")
		if (s >= 5 && s <= 30)
			proc(s, 102, s < 30 ? 1024 : 0, "leaky.py")
		if (s >= 25 && s <= 40)
			proc(s, 103, s < 40 ? 4096 : 0, "eval.py")
	}' > k.csv
echo "# report"
gpumem-report -q k.csv > r.html || die "report: exit $?"
awk '/^<ol class="marks">/ { f = 1 } f { print } /^<\/ol>/ { f = 0 }' r.html
echo "# plot"
gpumem-plot -T svg -o k.svg k.csv 2> list.txt || die "plot: exit $?"
cat list.txt
echo "# plot's tooltips, by the number in their box"
cat > tips.py <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
# Each marker: a box (fill #ebebea) with its <title>, then its number,
# a <text> whose group is placed in the box.
boxes = re.findall(r"<polygon fill = 'rgb\(235, 235, 234\)' points = '([^']*)'><title>([^<]*)</title>", svg)
nums = re.findall(r'<g transform="translate\(([-0-9.]+),([-0-9.]+)\)"[^>]*text-anchor="middle">\s*<text>(\d+)</text>', svg)
for pts, title in boxes:
    xy = [tuple(map(float, p.split(','))) for p in pts.split()]
    x0, x1 = min(p[0] for p in xy), max(p[0] for p in xy)
    y0, y1 = min(p[1] for p in xy), max(p[1] for p in xy)
    inside = [n for x, y, n in nums if x0 < float(x) < x1 and y0 < float(y) < y1 + 4]
    print(' '.join(inside) + ': ' + title.replace('\n', ' | '))
PY
python3 tips.py k.svg
# The same list in the report's tooltips (the page's own <title>s).
grep -c '<title>[123]\. 00:00:[234]0&#10;gpu0 10[123] ' r.html
