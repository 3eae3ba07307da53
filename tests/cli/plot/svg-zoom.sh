# A standalone SVG of one plot area zooms its time axis as the report's
# charts do (its root carries the plot area, the script is inside, the
# picture stays well-formed XML): in headless Chromium, zoomed to a
# minute of the demo by the function the drag calls, the y axis's
# labels, the title and the key keep their place and size, the time
# ticks run 00:01:00 to 00:02:00 (5 s apart on plot's 1200 px, 10 s on
# gantt's 1100); a plot of two GPUs (two plot areas, gnuplot tells the
# place of the last only) is left without zoom.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "the browser does not depend on the build variant"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
gpumem-synth -s demo > demo.csv
gpumem-plot -q --utc --gpu 0 -o one.svg demo.csv || die "plot: exit $?"
gpumem-gantt -q --utc -o gantt.svg demo.csv || die "gantt: exit $?"
gpumem-plot -q --utc -o two.svg demo.csv || die "plot two: exit $?"
for f in one.svg gantt.svg; do
	grep -q '^<svg data-box="[0-9.]* [0-9.]* [0-9.]* [0-9.]*" data-x=' $f || die "$f: no plot area"
	grep -q '<script type="text/javascript"><!\[CDATA\[' $f || die "$f: no script"
	python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' $f ||
		die "$f: not well-formed"
done
! grep -q 'data-box=\|<script' two.svg || die "two.svg: a zoom over two plot areas"
cat > probe.js <<'JS'
<script type="text/javascript"><![CDATA[
(function(){var r=document.documentElement,b=r.getAttribute('data-box').split(' ').map(Number),
 x0=+r.getAttribute('data-x').split(' ')[0];
function tr(g){return /translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute('transform')||'')}
function tick(y){return y>b[3]+8&&y<b[3]+25}
function texts(pick){return Array.prototype.filter.call(r.querySelectorAll('g[transform]'),function(g){
 var m=tr(g);return m&&g.querySelector('text')&&!g.closest('[display=none]')&&pick(+m[1],+m[2])})}
function d(v){return v.map(function(g){var t=g.querySelector('text'),q=t.getBoundingClientRect();
 return t.textContent+'@'+g.getAttribute('transform')+'/'+getComputedStyle(t).fontSize+'/'+
 Math.round(q.left)+','+Math.round(q.top)}).join(' ')}
var e=texts(function(x,y){return (x<b[0]||y<b[1]||x>b[2])&&!tick(y)}),f0=d(e);
gpumemZoom(r,x0+60,x0+120);
var t=texts(function(x,y){return tick(y)}).map(function(g){return g.querySelector('text').textContent});
r.setAttribute('data-probe','kept='+(d(e)===f0)+' '+(e.length>3)+' ticks='+t.join(','))})();
]]></script>
JS
for f in one gantt; do
	awk '/^<\/svg>/ { while ((getline l < "probe.js") > 0) print l } { print }' $f.svg > probed-$f.svg
	browser --dump-dom "file://$PWD/probed-$f.svg" > dom-$f.html ||
		die "dump-dom $f: exit $?: $(tail -n 3 browser.err)"
	sed -n 's/.*data-probe="\([^"]*\)".*/\1/p' dom-$f.html > got-$f.txt
done
expect_eq "plot" "$(cat got-one.txt)" "kept=true true ticks=00:01:00,00:01:05,00:01:10,00:01:15,00:01:20,00:01:25,00:01:30,00:01:35,00:01:40,00:01:45,00:01:50,00:01:55,00:02:00"
expect_eq "gantt" "$(cat got-gantt.txt)" "kept=true true ticks=00:01:00,00:01:10,00:01:20,00:01:30,00:01:40,00:01:50,00:02:00"
exit 0
