# An SVG parses, and has one "usage" curve per GPU, and one "total"
# ceiling per GPU: each curve is a plot element, which gnuplot's SVG
# writes as a <g id="gnuplot_plot_..."> holding its key entry's text.
. "$TESTS/lib.sh"
command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"
count() {
	xmllint --xpath "count(//*[local-name()='g'][starts-with(@id,'gnuplot_plot_')][.//*[local-name()='text'][normalize-space(.)='$2']])" "$1"
}
gpumem-synth -s multi-gpu > multi.csv
gpumem-plot -o multi.svg multi.csv || die "exit $?"
xmllint --noout multi.svg || die "multi.svg is not well-formed"
expect_eq "usage curves of 8 GPUs" "$(count multi.svg usage)" 8
expect_eq "ceilings of 8 GPUs" "$(count multi.svg total)" 8
expect_eq "unattributed curves" "$(count multi.svg unattributed)" 8
gpumem-synth -s leak | gpumem-plot -T svg > leak.svg || die "exit $?"
xmllint --noout leak.svg || die "leak.svg is not well-formed"
expect_eq "usage curves of 1 GPU" "$(count leak.svg usage)" 1
# The leak is written on the chart: the task, and what never came back.
grep -q '>4242 python3 launch.py --listen<' leak.svg || die "the leak is not labelled"
grep -q '>11.0 GiB never came back<' leak.svg || die "the leaked memory is not written"
exit 0
