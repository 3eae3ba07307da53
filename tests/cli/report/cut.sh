# More GPUs than one page charts (256; with -o FILE and gnuplot, their
# charts go to pages beside it: fleet-pages.sh): the page says how many
# GPUs were read and that it charts only the first 256, and so does
# stderr even with -q (a cut is never hidden).  300 GPUs on 3 hosts, two samples
# each, written with awk; the report without gnuplot (nothing to draw:
# the page alone is looked at) and plot --script say the same; the
# overview at the top of the page names every GPU.
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (t = 0; t < 2; t++)
		for (h = 0; h < 3; h++)
			for (g = 0; g < 100; g++)
				printf "%d000000000,node%d,%d,0,%d,%d,16384,\n", 1767225600 + t, h, g, 100 + t, 16284 - t
}' > fleet.csv
cut="300 GPUs: the charts show the first 256 seen; 88 samples of the other 44 are left out (their tasks are counted and listed)"
mkdir empty
PATH=$PWD/empty "$GPUMEM_BIN/gpumem-report" -q fleet.csv > r.html 2> err.txt || die "exit $?"
expect_eq "report -q" "$(cat err.txt)" "gpumem-report: $cut"
grep -q '&middot; 300 GPUs (256 charted) &middot; 600 samples' r.html || die "the header does not count 300 GPUs: $(grep 'class="meta"' r.html)"
grep -q '^<p class="warn" id="cut">This page charts the first 256 GPUs seen of 300: the 88 samples of the others are left out of the charts' r.html ||
	die "the page does not say its cut"
# The overview names all 300, links the 256 charted to their sections.
sed -n '/^<table class="ov">/,/^<\/table>/p' r.html > ov.html
expect_eq "overview cells" "$(grep -o '<td class="c' ov.html | wc -l | tr -d ' ')" 300
expect_eq "overview links" "$(grep -o 'href="#gpu-[0-9]*"' ov.html | sort -u | wc -l | tr -d ' ')" 256
expect_eq "not charted" "$(grep -o 'not charted' ov.html | wc -l | tr -d ' ')" 44
gpumem-plot -q --script fleet.csv > plot.gp 2> err.txt || die "plot: exit $?"
expect_eq "plot -q" "$(cat err.txt)" "gpumem-plot: $cut"
exit 0
