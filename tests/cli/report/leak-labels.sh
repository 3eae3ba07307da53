# Labels on the usage chart overlap neither each other nor the curves'
# lines: five processes that each leak 512 MiB of an 80 GiB GPU, ending
# 2 s apart, stack five thin blocks whose middles are a few pixels
# apart.  In the SVG gnuplot draws (plot, and the report's usage chart),
# no two labels share a line where their text runs (9 pt sans: about
# 5.5 px a character, 11 px a line), and no segment of the unattributed,
# usage or total line runs through a label's box.  The same on a chart
# of 138 tasks (gpumem synth), all marked.  The input is written by awk
# as a user's record stream.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
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
# Each label of a mark (held or leak colour) as x y width, from the
# SVG's text groups (a group may begin on the line of a path).
labels() {
	awk '/<g transform="translate\(/ {
		s = substr($0, index($0, "<g transform=\"translate("))
		split(s, a, /[(),]/); x = a[2]; y = a[3]; anchor = s
		mark = s ~ /fill="rgb\((166,54,3|103,0,13)\)"/
	}
	mark && /<text>/ {
		t = $0; sub(/.*<text>/, "", t); sub(/<\/text>.*/, "", t)
		w = length(t) * 5.5
		if (anchor ~ /text-anchor="end"/) x -= w
		print x, y, w
	}' "$1"
}
overlaps() {
	awk '{ x[NR] = $1; y[NR] = $2; w[NR] = $3 }
	END {
		for (i = 1; i <= NR; i++)
			for (j = i + 1; j <= NR; j++) {
				dy = y[i] - y[j]; if (dy < 0) dy = -dy
				if (dy < 11 && x[i] < x[j] + w[j] && x[j] < x[i] + w[i])
					print "labels " i " and " j " overlap: " y[i] ", " y[j]
			}
		print NR " labels"
	}'
}
# The labels ($1) a curve's line runs through in the SVG ($2): the
# unattributed, usage and total paths (each begins with its key's
# sample, left out), their segments against each text's box (9 px above
# its baseline, 2 below).
crossed() {
	awk 'FNR == NR { lx[NR] = $1; ly[NR] = $2; lw[NR] = $3; nl = NR; next }
	function seg(x0, y0, x1, y1,   k, t) {
		if (x0 > x1) { t = x0; x0 = x1; x1 = t }
		if (y0 > y1) { t = y0; y0 = y1; y1 = t }
		for (k = 1; k <= nl; k++)
			if (x0 < lx[k] + lw[k] && x1 > lx[k] && y0 < ly[k] + 2 &&
			    y1 > ly[k] - 9)
				hit[k] = 1
	}
	/<path stroke=.rgb\( *(230, *85, *13|37, *37, *37|127, *0, *0)\)/ {
		p = ""; inpath = 1
	}
	inpath { p = p " " $0 }
	inpath && /\/>/ {
		inpath = 0
		sub(/.* d=./, "", p); sub(/[\047"].*/, "", p)
		gsub(/[ML]/, " & ", p)
		n = split(p, tok, /[ \t]+/)
		part = 0
		for (i = 1; i <= n; i++) {
			if (tok[i] != "M" && tok[i] != "L")
				continue
			split(tok[i + 1], c, ",")
			if (tok[i] == "M")
				part++
			else if (part > 1)
				seg(px, py, c[1], c[2])
			px = c[1]; py = c[2]; i++
		}
	}
	END {
		for (k = 1; k <= nl; k++)
			if (hit[k])
				print "label " k " at " lx[k] "," ly[k] " is under a curve"
	}' "$1" "$2"
}
gpumem-plot -T svg -o plot.svg close.csv || die "plot: exit $?"
labels plot.svg | overlaps
labels plot.svg > l.txt
crossed l.txt plot.svg
gpumem-report -q close.csv > r.html || die "report: exit $?"
awk '/^<figure class="chart usage"/ { f = 1 } f { print } /^<\/figure>/ { f = 0 }' r.html > usage.svg
labels usage.svg | overlaps
labels usage.svg > l.txt
crossed l.txt usage.svg
# 138 tasks on one GPU in 12 h, all marked: labels at the top in rows,
# leak labels on their blocks or above, none over another or a curve.
gpumem-synth -s random --seed 3 --gpus 1 --interval 10s --duration 12h -o many.csv
gpumem-plot -T svg --marks 140 -o many.svg many.csv || die "plot: exit $?"
labels many.svg > l.txt
overlaps < l.txt
crossed l.txt many.svg
