# An SVG parses, and has one "usage" curve per GPU, and one "total"
# ceiling per GPU: each curve is a plot element, which gnuplot's SVG
# writes as a <g id="gnuplot_plot_..."> holding its key entry's text.
. "$TESTS/lib.sh"
command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"
count() {
	xmllint --xpath "count(//*[local-name()='g'][starts-with(@id,'gnuplot_plot_')][.//*[local-name()='text'][normalize-space(.)='$2']])" "$1"
}
gpumem-synth -s multi-gpu > multi.csv
gpumem-plot -q -o multi.svg multi.csv || die "exit $?"
xmllint --noout multi.svg || die "multi.svg is not well-formed"
expect_eq "usage curves of 8 GPUs" "$(count multi.svg usage)" 8
expect_eq "ceilings of 8 GPUs" "$(count multi.svg total)" 8
expect_eq "unattributed curves" "$(count multi.svg unattributed)" 8
gpumem-synth -s leak | gpumem-plot -q -T svg > leak.svg || die "exit $?"
xmllint --noout leak.svg || die "leak.svg is not well-formed"
expect_eq "usage curves of 1 GPU" "$(count leak.svg usage)" 1
# The leak is marker 1: its tooltip (an SVG <title>, shown on hover) says
# the task and what never came back, the marker shows its number.
grep -q '<title>1. 00:01:00$' leak.svg || die "marker 1 has no tooltip"
grep -q '^gpu0 4242 python3 launch.py --listen: 11.0 GiB never came back</title>' leak.svg ||
	die "the leak's tooltip: $(grep -A1 '<title>1\.' leak.svg)"
grep -q '<text>1</text>' leak.svg || die "marker 1 has no number"
exit 0
