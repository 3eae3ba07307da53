# The summary line ("FILE: N GPUs, N tasks, N leaked") is said once the
# page is in place, with synth's counts; never for a page that was not
# written (a file size limit: the write error alone, the old file kept),
# nor for a page on standard output.  Without gnuplot: no charts, fast.
. "$TESTS/lib.sh"
gpumem-synth -s demo --truth truth.csv > demo.csv
# The truth's counts: GPUs (host,gpu), tasks, leaked ones.
gpus=$(awk -F, 'NR > 1 { g[$1 "," $2] = 1 } END { print length(g) }' truth.csv)
tasks=$(awk -F, 'NR > 1 { n++ } END { print n }' truth.csv)
leaked=$(awk -F, 'NR > 1 && $12 == "leaked" { n++ } END { print n + 0 }' truth.csv)
mkdir empty
nogp() { PATH=$PWD/empty "$GPUMEM_BIN/$@"; }
nocharts="gpumem-report: gnuplot is not installed: install the Debian package gnuplot-nox: the report has no charts"
nogp gpumem-report -o r.html demo.csv 2> err.txt || die "exit $?"
expect_eq "written" "$(cat err.txt)" "$nocharts
gpumem-report: r.html: $gpus GPUs, $tasks tasks, $leaked leaked"
echo keep > r.html
rc=0; (trap '' XFSZ; ulimit -f 1; nogp gpumem-report -o r.html demo.csv 2> err.txt) || rc=$?
expect_eq "not written: exit" $rc 2
expect_eq "not written" "$(cat err.txt)" "$nocharts
gpumem-report: r.html: write error: File too large"
expect_eq "the old file" "$(cat r.html)" keep
nogp gpumem-report demo.csv > s.html 2> err.txt || die "stdout: exit $?"
expect_eq "standard output" "$(cat err.txt)" "$nocharts"
exit 0
