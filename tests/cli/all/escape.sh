# A process name holding what JSON, Markdown, HTML and XML must escape,
# control characters and bytes that are not UTF-8 comes out of every
# output that shows it as valid UTF-8 that its reader parses: tasks -t
# json and md, check --json, --markdown and --junit, report (esc.h, the
# one escaper per target).  The task (pid 77, ended at 00:00:06) leaks
# its 1024 MiB, so check's outputs name it.
. "$TESTS/lib.sh"
# " \ | < > & ' * _ # ` tab newline ^A, then \377 and a cut \303 (not
# UTF-8), then a real ü (\303\274), then ~ [ ] ( ) $.
NAME=$(printf 'a"b\\c|d<e>&'"'"'f*_#`g\th\ni\001j\377k\303l\303\274m~[x](y)$z')
export NAME
awk 'BEGIN {
	name = ENVIRON["NAME"]
	t0 = 1767225600	# 2026-01-01T00:00:00Z
	gsub(/"/, "\"\"", name)
	print "timestamp,host,gpu,process_id,memory_used,memory_free," \
	    "memory_total,process_name"
	for (s = 0; s < 40; s++) {
		used = s >= 2 ? 1024 : 0
		printf "%d000000000,,0,0,%d,%d,16384,\n", t0 + s, used,
		    16384 - used
		if (s >= 2 && s <= 6)
			printf "%d000000000,,0,77,%d,,,\"%s\"\n", t0 + s,
			    s < 6 ? used : 0, name
	}
}' > e.csv
# What a reader decodes: each byte that is not UTF-8 is U+FFFD.
want=$(printf 'a"b\\c|d<e>&'"'"'f*_#`g\th\ni\001j\357\277\275k\357\277\275l\303\274m~[x](y)$z')
utf8() {
	iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1 || die "$1: not UTF-8"
}

gpumem-tasks -q -t json e.csv > t.json
rc=0
gpumem-check -q --json c.json --markdown c.md --junit c.xml e.csv || rc=$?
expect_eq "check's exit (the task leaks)" "$rc" 1
gpumem-tasks -q -t md e.csv > t.md
for f in t.json c.json t.md c.md c.xml; do
	utf8 $f
done

# JSON: parsed by python, the name decoded is the name.
for f in t.json c.json; do
	python3 -m json.tool $f > /dev/null || die "$f: not JSON"
done
python3 -c 'import json, sys
sys.stdout.write(json.load(open("t.json"))["tasks"][0]["name"])' > got
printf '%s' "$want" > want
cmp -s got want || die "tasks -t json: the name decoded differs"
python3 -c 'import json, sys
sys.stdout.write(json.load(open("c.json"))["tasks"][0]["name"])' > got
cmp -s got want || die "check --json: the name decoded differs"

# Markdown: the name's row is one line with the header's cells (no raw
# | or line break), and each markup character is backslash-escaped.
cells() {
	sed 's/\\|//g' | awk -F '|' '{ print NF }'
}
for f in t.md c.md; do
	row=$(grep -a -F 'a"b' $f | head -n 1)
	[ -n "$row" ] || die "$f: no row names the task"
	head=$(grep -a -B 2 -F 'a"b' $f | grep -a '^| ' | head -n 1)
	expect_eq "$f cells" "$(printf '%s\n' "$row" | cells)" \
	    "$(printf '%s\n' "$head" | cells)"
	for c in '|' '*' '_' '`' '<' '>' '#' '[' ']' '~' '$' '&'; do
		case $row in
		*"\\$c"*) ;;
		*) die "$f: '$c' is not escaped: $row" ;;
		esac
	done
done

# JUnit: well-formed XML, the name in it as escaped text.
if command -v xmllint > /dev/null 2>&1; then
	xmllint --noout c.xml || die "c.xml: not XML"
else
	python3 -c 'import xml.dom.minidom; xml.dom.minidom.parse("c.xml")' ||
	    die "c.xml: not XML"
fi
grep -a -q 'a&quot;b\\c|d&lt;e&gt;&amp;&apos;f' c.xml ||
	die "c.xml: the escaped name is not there"

# The report: UTF-8, the name as entities, never as markup.
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
gpumem-report -q e.csv > r.html
utf8 r.html
sed '/<svg/,/<\/svg>/d' r.html > page.html
grep -a -q 'a&quot;b\\c|d&lt;e&gt;&amp;&apos;f\*_#`g&#9;h&#10;i'"$(printf '\357\277\275')"'j' page.html ||
	die "report: the escaped name is not there"
