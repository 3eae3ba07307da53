# The usage chart stacks its fills: leaked memory from the axis up, the
# attributed area on top of it, each fill the colour of its key entry.
# Built with awk (its truth by construction): leaky.py's 1024 MiB never
# come back after 00:00:30; eval.py holds 4096 MiB from 00:00:25 to
# 00:00:40.  At 00:00:35 the leak block spans 0..1024 MiB and the
# attributed area 1024..5120: in the SVG gnuplot draws, the attributed
# polygon's bottom there is the block's top and it is 4 blocks tall.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
command -v python3 > /dev/null || skip "python3 is not installed"
recording '
	for (s = 0; s < 60; s++) {
		dev(s, 300 + (s >= 5 ? 1024 : 0) + (s >= 25 && s < 40 ? 4096 : 0))
		if (s >= 5 && s <= 30)
			proc(s, 102, s < 30 ? 1024 : 0, "leaky.py")
		if (s >= 25 && s <= 40)
			proc(s, 103, s < 40 ? 4096 : 0, "eval.py")
	}' > k.csv
gpumem-plot -q -T svg -o k.svg k.csv || die "plot: exit $?"
cat > stack.py <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
def polys(text):
    return [(f, o, [tuple(map(float, p.split(','))) for p in pts.split()])
            for f, o, pts in re.findall(r"<polygon fill = '(rgb\([^)]*\))'(?: fill-opacity = '([0-9.]+)')? points = '([^']*)'", text)]
# The plot elements (each begins <g id="gnuplot_plot_N"), their key
# text and polygons (the key's sample first); before the first, the
# objects drawn behind them (the leak blocks).
parts = re.split(r'<g id="gnuplot_plot_', svg)
behind = polys(parts[0])
elem = {}
for p in parts[1:]:
    t = re.search(r'<text>([^<]*)</text>', p)
    elem[t.group(1) if t else p[:3]] = polys(p)
attr = elem['attributed']
leaked_key = elem['leaked'][0]
blocks = [b for b in behind if b[0] == leaked_key[0]]
print('blocks of the leaked colour behind the curves:', len(blocks))
print('leaked key sample as the blocks:', leaked_key[:2] == blocks[0][:2])
print('attributed key sample as its area:', attr[0][:2] == attr[1][:2])
bx0 = min(p[0] for p in blocks[0][2]); bx1 = max(p[0] for p in blocks[0][2])
btop = min(p[1] for p in blocks[0][2]); bbot = max(p[1] for p in blocks[0][2])
# The block runs from 00:00:30 (its task's end) to 00:00:59 (the last
# sample): x of 00:00:35.
x = bx0 + (35 - 30) * (bx1 - bx0) / 29
ys = []
for _, _, pts in attr[1:]:
    for (ax, ay), (cx, cy) in zip(pts, pts[1:] + pts[:1]):
        if min(ax, cx) <= x <= max(ax, cx) and ax != cx:
            ys.append(ay + (cy - ay) * (x - ax) / (cx - ax))
top, bottom = min(ys), max(ys)
print('attributed starts where the leaked ends:', abs(bottom - btop) < 0.6)
print('attributed is 4 leaks tall:', abs((bottom - top) - 4 * (bbot - btop)) < 1.2)
PY
python3 stack.py k.svg
