# Leak labels on the usage chart do not overlap: five processes that
# each leak 512 MiB of an 80 GiB GPU, ending 2 s apart, stack five thin
# blocks whose middles are a few pixels apart.  In the SVG gnuplot draws
# (plot, and the report's usage chart), no two labels saying "never came
# back" share a line where their text runs (9 pt sans: about 5.5 px a
# character, 11 px a line).  The input is written by awk as a user's
# record stream.
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
# Each label: x y characters, from the SVG's text groups.
labels() {
	awk '/<g transform="translate\(/ { split($0, a, /[(),]/); x = a[2]; y = a[3]; anchor = $0 }
	/<text>.*never came back<\/text>/ {
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
gpumem-plot -T svg -o plot.svg close.csv || die "plot: exit $?"
labels plot.svg | overlaps
gpumem-report -q close.csv > r.html || die "report: exit $?"
awk '/^<figure class="chart usage">/ { f = 1 } f { print } /^<\/figure>/ { f = 0 }' r.html > usage.svg
labels usage.svg | overlaps
