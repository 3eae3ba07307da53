# A process name holding what HTML must escape (& < > " ') is written as
# entities wherever the report shows it, never as markup.  (The charts,
# SVG that gnuplot writes, are gnuplot's: left out here.)  In the task
# table's JSON (a script element) it is a JSON string whose '<' is
# \u003c, so that it cannot end the element.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
name_stream "a\"b<i>c&d'e" > e.csv
gpumem-report -q e.csv > r.html
sed '/<svg/,/<\/svg>/d; /^<script type="application\/json"/,/^<\/script>/d' r.html > page.html
grep -qF '"names":["a\"b\u003ci>c&d'"'"'e"]' r.html || die "the name is not escaped in the JSON"
expect_eq "script ends" "$(grep -c '</script>' r.html)" 2
grep -q 'a&quot;b&lt;i&gt;c&amp;d&apos;e' page.html ||
	die "the escaped name is not in the report"
! grep -q 'b<i>c' page.html || die "the name's <i> is markup"
! grep -q 'a"b' page.html || die "the name's quote is raw"
! grep -q "d'e" page.html || die "the name's apostrophe is raw"
