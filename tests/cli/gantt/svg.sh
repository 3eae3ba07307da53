# An SVG Gantt chart parses and holds one bar per task: the tasks' lives
# are the boxes of the plot element titled "alive" (gnuplot's SVG writes
# it as a <g id="gnuplot_plot_..."> holding its key entry's text and a
# polygon per box, plus one for the key's sample); one leak bar per
# leaked task likewise.
. "$TESTS/lib.sh"
command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"
bars() {
	n=$(xmllint --xpath "count(//*[local-name()='g'][starts-with(@id,'gnuplot_plot_')][.//*[local-name()='text'][normalize-space(.)='$2']]//*[local-name()='polygon'])" "$1")
	echo $((n - 1))
}
for s in demo multi-gpu concurrent; do
	gpumem-synth -s $s > $s.csv
	gpumem-tasks -q $s.csv > tasks.csv
	n=$(nrec tasks.csv)
	leaks=$(grep -c ',leaked,' tasks.csv || :)
	gpumem-gantt -o $s.svg $s.csv || die "$s: exit $?"
	xmllint --noout $s.svg || die "$s.svg is not well-formed"
	expect_eq "$s: bars" "$(bars $s.svg alive)" "$n"
	if [ "$leaks" -gt 0 ]; then
		expect_eq "$s: leak bars" "$(bars $s.svg 'leaked: never came back')" "$leaks"
	fi
done
grep -q 'leaked 11.0 GiB' demo.svg || die "the leaked memory is not written on its bar"
# The key's swatches are colours of bars they stand for: memory held is
# coloured by its delay (the colour box shows the scale), never by one
# swatch of another colour.  A plot element's swatch is its first polygon
# after its key text; the others, within the element, are its bars.
awk '/<g id="gnuplot_plot_/ { cur = $0; depth = 0; titled = 0; sw = 0 }
cur != "" {
	if (/<text>/ && !sw) titled = 1
	if (/<polygon/) {
		c = $0; sub(/.*fill = \047/, "", c); sub(/\047.*/, "", c)
		if (titled && !sw) { sw = 1; swatch[c] = 1 } else bar[c] = 1
	}
	depth += gsub(/<g[ >]/, "&") - gsub(/<\/g>/, "&")
	if (depth <= 0) cur = ""
}
END { for (c in swatch) if (!(c in bar)) print "a swatch of no bar: " c }' demo.svg > swatches.txt
expect_eq "swatches" "$(cat swatches.txt)" ""
grep -q '<text>held after the end</text>' demo.svg || die "no colour box"
exit 0
