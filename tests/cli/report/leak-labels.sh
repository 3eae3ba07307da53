# The usage chart's markers overlap neither each other nor the curves'
# lines.  Each marked task (a leak or a release) is a small numbered box
# on its end line, in rows above the curves; what it is, is in the list
# under the chart (report) or on standard error (plot) and in the box's
# tooltip.  Checked on the SVG gnuplot draws, as a browser would show it:
# the boxes (fill #ebebea) from their points, each number's text box
# estimated from its font (9 pt sans: 5.5 px a digit, 9 px above the
# baseline, 2 below); no two boxes overlap, every number lies in a box
# and no two numbers overlap, no segment of the usage, unattributed or
# total line runs through a box, and every mark of the list is drawn.
# Inputs: five processes (written by awk as a user's record stream) that
# each leak 512 MiB of an 80 GiB GPU, ending 2 s apart, in plot and in
# the report; 140 and 143 tasks on two GPUs in 12.5 h (gpumem synth),
# all but the two running at the end marked.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
command -v python3 > /dev/null || skip "python3 is not installed"
awk 'BEGIN {
	t0 = 1767225600; total = 81920
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (s = 0; s < 90; s++) {
		used = s >= 5 ? 300 + 5 * 512 : 300
		printf "%d000000000,,0,0,%d,%d,%d,\n", t0 + s, used, total - used, total
		for (p = 1; p <= 5; p++) {
			end = 30 + 2 * p
			if (s >= 5 && s < end)
				printf "%d000000000,,0,%d,512,,,\"job%d.py\"\n", t0 + s, 100 + p, p
			else if (s == end)
				printf "%d000000000,,0,%d,0,,,\"job%d.py\"\n", t0 + s, 100 + p, p
		}
	}
}' > close.csv
cat > marks.py <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
want = int(sys.argv[2])
num = r'(-?[0-9.]+)'
boxes = []
for pts in re.findall(r"<polygon fill\s*=\s*'rgb\(235,\s*235,\s*234\)'\s*points\s*=\s*'([^']*)'", svg):
    xy = [tuple(map(float, p.split(','))) for p in pts.split()]
    boxes.append((min(p[0] for p in xy), min(p[1] for p in xy),
                  max(p[0] for p in xy), max(p[1] for p in xy)))
texts = []
for x, y, t in re.findall(r'<g transform="translate\(' + num + ',' + num + r'\)"[^>]*fill="rgb\((?:203,\s*24,\s*29|166,\s*54,\s*3)\)"[^>]*text-anchor="middle">\s*<text>(\d+)</text>', svg):
    w = len(t) * 5.5
    texts.append((float(x) - w / 2, float(y) - 9, float(x) + w / 2, float(y) + 2, t))
# The key's samples lie left of its texts: no segment of theirs counts.
keyx = min([float(x) for x, t in re.findall(r'<g transform="translate\(' + num + r',[^)]*\)[^>]*>\s*<text>(usage|unattributed|total)</text>', svg)] or [1e9]) - 40
def over(a, b, slack=0.5):
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack
bad = 0
for i in range(len(boxes)):
    for j in range(i + 1, len(boxes)):
        if over(boxes[i], boxes[j]):
            print('markers overlap:', boxes[i], boxes[j]); bad += 1
for i in range(len(texts)):
    if not any(b[0] - 1 <= texts[i][0] and texts[i][2] <= b[2] + 1 and b[1] - 1 <= texts[i][1] and texts[i][3] <= b[3] + 3 for b in boxes):
        print('number outside a marker:', texts[i]); bad += 1
    for j in range(i + 1, len(texts)):
        if over(texts[i], texts[j]):
            print('numbers overlap:', texts[i], texts[j]); bad += 1
for r, g, b, d in re.findall(r"<path stroke\s*=\s*'rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\)'[^>]*?\sd\s*=\s*'([^']*)'", svg):
    if (int(r), int(g), int(b)) not in ((37, 37, 37), (230, 85, 13), (127, 0, 0)):
        continue
    prev = None
    for op, x, y in re.findall(r'([ML])\s*' + num + ',' + num, d):
        p = (float(x), float(y))
        if op == 'L' and prev is not None and not (p[0] > keyx and prev[0] > keyx):
            seg = (min(p[0], prev[0]), min(p[1], prev[1]), max(p[0], prev[0]), max(p[1], prev[1]))
            for bx in boxes:
                if seg[0] < bx[2] and bx[0] < seg[2] and seg[1] < bx[3] and bx[1] < seg[3]:
                    print('a line runs through a marker:', seg, bx); bad += 1
        prev = p
print('%d markers of %d, %d numbers, %d faults' % (len(boxes), want, len(texts), bad))
sys.exit(1 if bad or len(boxes) != want or len(texts) != want else 0)
PY
gpumem-plot -T svg -o plot.svg close.csv 2> list.txt || die "plot: exit $?"
python3 marks.py plot.svg $(wc -l < list.txt) || die "plot of close leaks"
gpumem-report -q close.csv > r.html || die "report: exit $?"
awk '/^<figure class="chart usage"/ { f = 1 } f { print } /^<\/figure>/ { f = 0 }' r.html > usage.svg
python3 marks.py usage.svg $(grep -c '^<li value=' r.html) || die "report of close leaks"
gpumem-synth -s random --seed 3 --gpus 2 --interval 10s --duration 45000s -o many.csv
gpumem-plot -T svg --marks 1000 -o many.svg many.csv 2> list.txt || die "plot: exit $?"
# 140 and 143 tasks, 2 running at the end (not marked): 281 marks.
expect_eq "marks listed" "$(grep -c ': mark [0-9]* at ' list.txt)" 281
python3 marks.py many.svg 281 || die "plot of 281 marks"
