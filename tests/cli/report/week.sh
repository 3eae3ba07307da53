# The week-scale report (15,000 tasks on 10 GPUs over 7 days, made with
# gpumem synth) stays small and navigable: under 1.5 MB, an index of the
# GPUs whose links all land on a section, the task table's first 50 rows
# with every task in its JSON, tags balanced (python3's html.parser),
# nothing fetched; headless Chromium renders it (a screenshot not blank)
# and "show all" pages through every task, 500 rows a page.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "15,000 tasks are too slow under sanitizers"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
gpumem-synth -s random --duration 7d --gpus 10 --interval 60s --seed 7 > week.csv
gpumem-report -q -o week.html week.csv || die "exit $?"
size=$(wc -c < week.html | tr -d ' ')
[ "$size" -lt 1500000 ] || die "the page is $size bytes"
ntasks=$(gpumem-tasks -q week.csv | tail -n +2 | wc -l | tr -d ' ')
[ "$ntasks" -gt 15000 ] || die "only $ntasks tasks"
# The index: one link a GPU, each to a section that exists.
expect_eq "index links" "$(grep -o 'href="#gpu-[0-9]*"' week.html | sort -u | wc -l | tr -d ' ')" 10
for a in $(grep -o 'href="#gpu-[0-9]*"' week.html | sed 's/href="#//; s/"//'); do
	grep -q "<section class=\"gpu\" id=\"$a\">" week.html || die "no section $a"
done
grep -q 'href="#tasklist"' week.html && grep -q '<h2 id="tasklist">' week.html || die "no link to the table"
expect_eq "table rows" "$(grep -c '^<tr class=' week.html)" 50
expect_eq "JSON rows" "$(sed -n '/^<script type="application\/json" id="taskdata">/,/^<\/script>/p' week.html | grep -c '^\[')" "$ntasks"
urls=$(grep -Eo '(https?|ftp)://[^"'"'"' )]*' week.html | sort -u | tr '\n' ' ')
expect_eq "URLs" "$urls" "http://www.w3.org/1999/xlink http://www.w3.org/2000/svg "
! grep -Eiq '<(link|img|iframe|object)[ >]|src=|@import' week.html || die "refers to an external file"
python3 - week.html <<'PY' || die "tags are not balanced"
import sys
from html.parser import HTMLParser
VOID = {"meta", "input", "br", "hr", "img", "link", "source", "wbr", "col", "area", "base", "embed", "param", "track"}
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack = []
        self.bad = 0
    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            print("unbalanced </%s> at %s, open: %s" % (tag, self.getpos(), self.stack[-3:]))
            self.bad = 1
            return
        self.stack.pop()
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
p.close()
if p.stack:
    print("unclosed:", p.stack[-3:])
sys.exit(p.bad or bool(p.stack))
PY
browser --screenshot="$PWD/shot.png" --window-size=1200,1600 "file://$PWD/week.html" > /dev/null ||
	die "screenshot: exit $?: $(tail -n 3 browser.err)"
set -- $("$TOOLS/pnginfo" shot.png) || die "shot.png is not a valid PNG"
expect_eq "screenshot size" "$1x$2" 1200x1600
[ "$3" -gt 50 ] || die "the screenshot is blank ($3 colours)"
cat > probe.js <<'JS'
<script>
(function(){
function $(i){return document.getElementById(i)}
function rows(){return document.querySelectorAll('#tasks tbody tr').length}
var out=['first='+rows()];
$('f-all').click();out.push('all='+rows()+' next='+!$('f-next').hidden);
$('f-next').click();out.push('page2='+rows());
out.push($('f-count').textContent);
var p=document.createElement('pre');p.id='probe';p.textContent=out.join('; ');
document.body.appendChild(p)})();
</script>
JS
got=$(probe_page week.html)
pages=$(( (ntasks + 499) / 500 ))
expect_eq "paging" "$got" \
    "first=50; all=500 next=true; page2=500; $ntasks of $ntasks tasks, page 2 of $pages"
exit 0
