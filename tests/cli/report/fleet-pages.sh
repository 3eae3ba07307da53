# A fleet's report: with more GPUs than --page-gpus (32) and -o FILE,
# the first page holds the overview, the numbers and the task table, and
# each host's charts go to a page beside it (a host of more GPUs than
# that: several), linked from its GPUs' cells.  5 hosts x 4 GPUs made
# with awk, a task a GPU; two of the hosts' names read alike once made
# file names ("rack 1/a", "rack_1_a").  The first page names every GPU,
# holds no chart, and its size goes with the GPUs, not the samples (ten
# times the samples: the same size but for the counts).
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
fleet() {
	awk -v S="$1" 'BEGIN {
		t0 = 1767225600
		split("node-1,node-2,rack 1/a,rack_1_a,node-5", h, ",")
		print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
		for (s = 0; s < S; s++)
			for (i = 1; i <= 5; i++)
				for (g = 0; g < 4; g++) {
					used = s >= 5 && s < S / 2 + 3 ? 2048 : 0
					printf "%d000000000,%s,%d,0,%d,%d,16384,\n", t0 + s, h[i], g, used, 16384 - used
					if (s >= 5 && s <= S / 2)
						printf "%d000000000,%s,%d,%d,%d,,,job%d\n", t0 + s, h[i], g, 100 + i * 4 + g, s < S / 2 ? 2048 : 0, g
				}
	}'
}
fleet 60 > short.csv
fleet 600 > long.csv
mkdir a b
gpumem-report -q -o a/r.html --page-gpus 3 short.csv || die "exit $?"
gpumem-report -q -o b/r.html --page-gpus 3 long.csv || die "exit $?"
expect_eq "pages" "$(cd a && ls | tr '\n' ' ')" "r-node-1+2.html r-node-1.html r-node-2+2.html r-node-2.html r-node-5+2.html r-node-5.html r-rack_1_a+2.html r-rack_1_a+h5+2.html r-rack_1_a+h5.html r-rack_1_a.html r.html "
# Every GPU is named in the overview, its cell links to its section on
# its host's page, and that section is the GPU's.
sed -n '/^<table class="ov">/,/^<\/table>/p' a/r.html > ov.html
expect_eq "cells" "$(grep -o '<td class="c' ov.html | wc -l | tr -d ' ')" 20
grep -o 'title="[^:]*: [^"]*"><a href="[^"]*"' ov.html |
    sed 's/^title="\([^:]*\): [^"]*"><a href="\([^#"]*\)#\([^"]*\)"$/\1|\2|\3/' > links.txt
expect_eq "linked cells" "$(wc -l < links.txt | tr -d ' ')" 20
expect_eq "GPUs named" "$(cut -d'|' -f1 links.txt | tr '\n' ',')" "node-1 GPU 0,node-1 GPU 1,node-1 GPU 2,node-1 GPU 3,node-2 GPU 0,node-2 GPU 1,node-2 GPU 2,node-2 GPU 3,node-5 GPU 0,node-5 GPU 1,node-5 GPU 2,node-5 GPU 3,rack 1/a GPU 0,rack 1/a GPU 1,rack 1/a GPU 2,rack 1/a GPU 3,rack_1_a GPU 0,rack_1_a GPU 1,rack_1_a GPU 2,rack_1_a GPU 3,"
while IFS='|' read -r gpu file id; do
	[ -f "a/$file" ] || die "$gpu: $file is missing"
	h2=$(sed -n "/^<section class=\"gpu\" id=\"$id\">/{n;p;}" "a/$file")
	case $h2 in
	"<h2>$gpu <small>"*) ;;
	*) die "$gpu: $file#$id is '$h2'" ;;
	esac
	# Its usage chart is its own (one gnuplot drew them all).
	sed -n "/^<section class=\"gpu\" id=\"$id\">/,/^<\/section>/p" "a/$file" |
	    grep -q "<text>$gpu: 16.0 GiB total, 1 task" || die "$gpu: not its chart"
done < links.txt
# The list of the pages names their hosts (and first GPU when a host has
# several).
grep -q '<a href="r-rack_1_a+2.html">rack 1/a (from GPU 3)</a>, <a href="r-rack_1_a+h5.html">rack_1_a</a>' a/r.html ||
	die "the list of pages: $(grep 'id="pages"' a/r.html)"
# The first page has no chart; a host's pages have two a GPU and link
# back to it.
! grep -q '<svg' a/r.html || die "the first page holds a chart"
expect_eq "charts" "$(cat a/r-*.html | grep -c '^<figure class="chart')" 40
expect_eq "back links" "$(grep -l 'href="r.html#index"' a/r-*.html | wc -l | tr -d ' ')" 10
# Ten times the samples: the first page grows by a few digits only, and
# stays under 2 KB a GPU.
sa=$(wc -c < a/r.html)
sb=$(wc -c < b/r.html)
[ "$sb" -lt $((sa + 64)) ] || die "ten times the samples: $sa then $sb bytes"
[ "$sb" -lt $((20 * 2048)) ] || die "the first page is $sb bytes for 20 GPUs"
# A name that is no URL as it is, in a folder: the links are escaped.
mkdir c
gpumem-report -q -o 'c/r #1.html' --page-gpus 19 short.csv || die "exit $?"
expect_eq "escaped pages" "$(cd c && ls | tr '\n' ' ')" "r #1-node-1.html r #1-node-2.html r #1-node-5.html r #1-rack_1_a+h5.html r #1-rack_1_a.html r #1.html "
grep -q '<a href="r%20%231-rack_1_a+h5.html#gpu-16">0</a>' 'c/r #1.html' || die "no escaped link"
grep -q 'href="r%20%231.html#index"' 'c/r #1-node-5.html' || die "no escaped link back"
# To standard output, or with --page-gpus 0: one page, every chart on it.
gpumem-report -q long.csv > one.html || die "exit $?"
expect_eq "one page" "$(grep -c '^<figure class="chart' one.html)" 40
gpumem-report -q --page-gpus 0 -o all.html long.csv || die "exit $?"
expect_eq "--page-gpus 0" "$(grep -c '^<figure class="chart' all.html)" 40
expect_eq "nothing beside" "$(ls | grep -c '^all')" 1
exit 0
