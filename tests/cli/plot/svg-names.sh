# A process name is any bytes: one holding "]]>" (with < and &) must not
# make the SVG that plot and gantt write invalid XML (browsers show an
# error instead of the chart).  gnuplot's SVG terminal escapes & and <
# but not >, and XML text cannot hold "]]>": the name reaches gnuplot
# with a WORD JOINER (U+2060, no width) between "]]" and ">".  An XML
# parser (Python's) reads each SVG, and its text holds the name as it
# reads without that joiner.
. "$TESTS/lib.sh"
command -v python3 > /dev/null || skip "python3 is not installed"
name='a]]>b<c&d'
name_stream "$name" > n.csv
gpumem-plot -q -T svg -o plot.svg n.csv
gpumem-gantt -T svg -o gantt.svg n.csv
gpumem-synth -s leak > leak.csv
gpumem-plot -q -T svg --title "x]]>y" -o title.svg leak.csv
cat > texts.py <<'PY'
import sys
import xml.etree.ElementTree as ET
for e in ET.parse(sys.argv[1]).iter():
    if e.tag.endswith('}text') or e.tag.endswith('}title'):
        t = ' '.join(''.join(e.itertext()).replace('\u2060', '').split('\n'))
        if ']]>' in t:
            print(t)
PY
for f in plot gantt title; do
	python3 texts.py $f.svg > $f.txt || die "$f.svg does not parse"
done
expect_eq "plot: the marker's tooltip" "$(cat plot.txt)" "1. 00:00:08 gpu0 77 $name: memory back 0 s after its end"
expect_eq "gantt: the task's row" "$(cat gantt.txt)" "gpu0 77 $name"
expect_eq "plot: the title" "$(cat title.txt)" "x]]>y"
