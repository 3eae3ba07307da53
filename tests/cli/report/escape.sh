# A process name holding what HTML must escape (& < > " ') is written as
# entities wherever the report shows it, never as markup.  (The charts,
# SVG that gnuplot writes, are gnuplot's: left out here.)
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
name_stream "a\"b<i>c&d'e" > e.csv
gpumem-report -q e.csv > r.html
sed '/<svg/,/<\/svg>/d' r.html > page.html
grep -q 'a&quot;b&lt;i&gt;c&amp;d&apos;e' page.html ||
	die "the escaped name is not in the report"
! grep -q 'b<i>c' page.html || die "the name's <i> is markup"
! grep -q 'a"b' page.html || die "the name's quote is raw"
! grep -q "d'e" page.html || die "the name's apostrophe is raw"
