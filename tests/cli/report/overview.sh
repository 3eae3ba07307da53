# The page opens with an overview of every host x GPU: a cell a GPU, in
# order of host and GPU, saying its tasks, leaks (what never came back)
# and longest release delay, each with a link to its GPU's section.
# Three hosts from gpumem synth (demo, multi-gpu, partial-leak), the
# expected cells built from their truth with awk; the report without
# gnuplot (the overview needs none).
. "$TESTS/lib.sh"
gpumem-synth -s demo --host node-a -t a.truth > a.csv
gpumem-synth -s multi-gpu --host node-b -t b.truth > b.csv
gpumem-synth -s partial-leak --host node-c -t c.truth > c.csv
mkdir empty
PATH=$PWD/empty "$GPUMEM_BIN/gpumem-report" -q -o r.html a.csv b.csv c.csv || die "exit $?"
sed -n '/^<table class="ov">/,/^<\/table>/p' r.html > ov.html
grep -o 'title="[^"]*"' ov.html | sed 's/^title="//; s/"$//' > got.txt
awk -F, 'FNR > 1 {
	k = $1 " GPU " $2; if (!(k in n)) order[++m] = k; n[k]++
	if ($12 == "leaked") { l[k]++; mib[k] += $11 }
	if ($12 == "released" && $10 + 0 > d[k]) d[k] = $10 + 0
}
END {
	for (i = 1; i <= m; i++) {
		k = order[i]; s = k ": " n[k] " task" (n[k] == 1 ? "" : "s")
		if (l[k]) s = s ", " l[k] " leaked (" (mib[k] >= 1024 ? sprintf("%.1f GiB", mib[k] / 1024) : mib[k] " MiB") ")"
		if (d[k] > 0) s = s ", longest release delay " sprintf("%g", d[k]) " s"
		print s
	}
}' a.truth b.truth c.truth | sort -t' ' -k1,1 -k3,3n > want.txt
expect_eq "cells" "$(cat got.txt)" "$(cat want.txt)"
# Each cell links to its GPU's section, and that section is the GPU's.
n=0
for a in $(grep -o 'href="#gpu-[0-9]*">[0-9]*' ov.html | sed 's/href="#//; s/">/:/'); do
	id=${a%%:*} gpu=${a#*:}
	grep -A1 "^<section class=\"gpu\" id=\"$id\">" r.html | grep -q "GPU $gpu\\b" ||
		die "$id is not the section of GPU $gpu"
	n=$((n + 1))
done
expect_eq "links" $n 11
# A leak tints its cell; the leaked GPUs are node-a 1, node-b 5, node-c 0.
expect_eq "tinted" "$(grep -o '<td class="c l[0-9]"[^>]*title="[^:]*' ov.html | sed 's/.*title="//' | tr '\n' ,)" "node-a GPU 1,node-b GPU 5,node-c GPU 0,"
exit 0
