# The texts on and beside Gantt bars (delays, leaks) are never cut at
# the plot area's edges, in a real browser (headless Chromium): every
# text shown lies inside the plot area (its box, the SVG's translate plus
# the text's getBBox, between data-box's left and right), or it is
# hidden.  The demo (truth.csv): train.py 00:00:10-00:02:00, back at
# 00:02:02 (2 s); eval.py 00:01:00-00:01:40, back at 00:02:05 (25 s);
# launch.py 00:00:20-00:02:30 then leaked to the log's end (00:03:59);
# infer.py 00:02:40-00:03:20, back at once (0 s).  Zoomed to 00:01:00-
# 00:02:00, the delays of train.py and eval.py come after the right edge:
# they are moved in, ending at the edge ("edge"), as is the leak of
# launch.py; infer.py's row shows no bar, its text is hidden.  Zoomed to
# 00:03:10-00:03:59 the leak's text, which starts at 00:02:30, is moved
# in to the left edge ("ledge"), the rows of GPU 0 are empty.  The
# report's charts (one a GPU) and the standalone SVG (all four rows, the
# same script) give the same.  Unzoomed, in narrow charts where a text
# finds no room beside or on its bar (a task that lasts to the log's
# end), gnuplot's own placement (measured before the script runs) keeps
# every text inside too: the text is left out.
. "$TESTS/lib.sh"
demo_report --utc
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
gpumem-gantt -q --utc -o gantt.svg demo.csv || die "gantt: exit $?"
cat > labels.js <<'JS'
function q(e,s){return Array.prototype.slice.call(e.querySelectorAll(s))}
function labels(f){var b=f.getAttribute('data-box').split(' ').map(Number);
 return q(f,'g[transform]').filter(function(g){var m=/translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute('transform'));
  return m&&g.querySelector('text')&&g.closest('[id*=gnuplot_plot_]')&&+m[2]>b[1]&&+m[2]<b[3]&&!g.closest('[display=none]')}).map(function(g){
  var m=/translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute('transform')),t=g.querySelector('text'),
   k=t.getBBox(),l=+m[1]+k.x,r=l+k.width;
  return t.textContent+':'+(l<b[0]||r>b[2]?'CUT':r>b[2]-4?'edge':l<b[0]+4?'ledge':'in')}).join(' ')}
function zooms(f){var x0=+f.getAttribute('data-x').split(' ')[0],out=['whole: '+labels(f)];
 [[60,120],[0,120],[100,200],[150,230],[190,239]].forEach(function(z){
  gpumemZoom(f,x0+z[0],x0+z[1]);out.push(z.join('-')+': '+labels(f))});
 gpumemZoom(f,x0,x0+1e6);out.push('reset: '+labels(f));return out.join('\n')}
JS
cat > report.js <<'JS'
(function(){var p=document.createElement('pre');p.id='probe';
p.textContent=q(document,'figure.chart.gantt').map(zooms).join('\n');
document.body.appendChild(p)})();
JS
{ echo '<script>'; cat labels.js report.js; echo '</script>'; } > probe.js
got=$(probe_page report.html --window-size=1200,2000)
expect_eq "report" "$got" "whole: 2 s ±1 s:in 25 s ±1 s:in
60-120: 2 s ±1 s:edge 25 s ±1 s:edge
0-120: 2 s ±1 s:edge 25 s ±1 s:edge
100-200: 2 s ±1 s:in 25 s ±1 s:in
150-230: 
190-239: 
reset: 2 s ±1 s:in 25 s ±1 s:in
whole: 0 s (0–1 s):in leaked 11.0 GiB:in
60-120: leaked 11.0 GiB:edge
0-120: leaked 11.0 GiB:edge
100-200: 0 s (0–1 s):edge leaked 11.0 GiB:in
150-230: 0 s (0–1 s):in leaked 11.0 GiB:in
190-239: 0 s (0–1 s):in leaked 11.0 GiB:ledge
reset: 0 s (0–1 s):in leaked 11.0 GiB:in"

# The standalone SVG: the probe before the zoom's script (gnuplot's
# placement, unzoomed) and after it (zoomed by the same function).
cat > raw.js <<'JS'
document.documentElement.setAttribute('data-raw',labels(document.documentElement));
JS
cat > svg.js <<'JS'
(function(){var r=document.documentElement;
 r.setAttribute('data-probe',r.getAttribute('data-raw')+'\n'+zooms(r))})();
JS
# svg_probe SVG JS: SVG with labels.js and raw.js run before its zoom
# script, JS after it; on stdout the data-probe JS left on the root.
svg_probe() {
	{ echo '<script type="text/javascript"><![CDATA['
	  cat labels.js raw.js; echo ']]></script>'; } > before.xml
	{ echo '<script type="text/javascript"><![CDATA['
	  cat "$2"; echo ']]></script>'; } > after.xml
	awk '/^<script type="text\/javascript"><!\[CDATA\[$/ && !d {
		while ((getline l < "before.xml") > 0) print l; d = 1 }
	    /^<\/svg>/ { while ((getline l < "after.xml") > 0) print l } { print }' \
	    "$1" > probed.svg
	grep -q 'data-raw' probed.svg || die "$1: no zoom script"
	browser --dump-dom "file://$PWD/probed.svg" > dom.html ||
		die "dump-dom $1: exit $?: $(tail -n 3 browser.err)"
	sed -n 's/.*data-probe="\([^"]*\)".*/\1/p' dom.html | sed 's/&#10;/\
/g'
}
got=$(svg_probe gantt.svg svg.js)
expect_eq "standalone" "$got" "2 s ±1 s:in 25 s ±1 s:in 0 s (0–1 s):in leaked 11.0 GiB:in
whole: 2 s ±1 s:in 25 s ±1 s:in 0 s (0–1 s):in leaked 11.0 GiB:in
60-120: 2 s ±1 s:edge 25 s ±1 s:edge leaked 11.0 GiB:edge
0-120: 2 s ±1 s:edge 25 s ±1 s:edge leaked 11.0 GiB:edge
100-200: 2 s ±1 s:in 25 s ±1 s:in 0 s (0–1 s):edge leaked 11.0 GiB:in
150-230: 0 s (0–1 s):in leaked 11.0 GiB:in
190-239: 0 s (0–1 s):in leaked 11.0 GiB:ledge
reset: 2 s ±1 s:in 25 s ±1 s:in 0 s (0–1 s):in leaked 11.0 GiB:in"

# Narrow, unzoomed: the demo 450 px wide, where infer.py's delay found
# room neither after its bars nor before its start, and a log whose
# train.py leaks to its end while eval.py's memory comes back at its
# last sample (19 s), 420 and 480 px wide.  What is drawn stays inside.
to_end_stream > end.csv
echo '(function(){var r=document.documentElement;r.setAttribute("data-probe",r.getAttribute("data-raw")+" / "+labels(r))})();' > whole.js
for c in demo.csv:450x150 end.csv:420x160 end.csv:480x160; do
	gpumem-gantt -q --utc --size ${c#*:} -o narrow.svg ${c%:*} ||
		die "gantt $c: exit $?"
	echo "$c: $(svg_probe narrow.svg whole.js)"
done > narrow.txt
expect_eq "narrow" "$(cat narrow.txt)" "demo.csv:450x150: 2 s ±1 s:in 25 s ±1 s:in / 2 s ±1 s:in 25 s ±1 s:in
end.csv:420x160:  / 
end.csv:480x160: leaked 4.0 GiB:ledge 19 s ±1 s:in / leaked 4.0 GiB:ledge 19 s ±1 s:in"
