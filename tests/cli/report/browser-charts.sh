# The charts in a real browser: each Gantt bar carries its tooltip (an
# SVG <title>: task, life, held, release delay or leak), one a bar: the
# demo's truth has 4 tasks (4 lives), 3 released (3 held bars), 1 leaked
# (1 leak bar) on 2 GPUs; the index's links land on the GPU sections;
# the zoom's + button, twice, shows a quarter of the time axis in the
# same width (browser-zoom.sh tests the rest), reset the whole.  A test
# script added to a copy of the page asks headless Chromium's DOM.
. "$TESTS/lib.sh"
demo_report --utc
cat > probe.js <<'JS'
<script>
(function(){
function q(s){return document.querySelectorAll(s)}
var out=[];
out.push('tips='+q('figure.gantt polygon > title').length);
var t=Array.prototype.filter.call(q('figure.gantt polygon > title'),function(e){
 return e.textContent.indexOf('eval.py')>=0});
out.push('eval='+t.length+':'+t[0].textContent.replace(/\n/g,' | '));
var ok=0;q('nav.index a[href^="#gpu-"]').forEach(function(a){
 if(document.getElementById(a.getAttribute('href').slice(1)))ok++});
out.push('anchors='+ok);
var f=q('figure.chart')[0],svg=f.querySelector('svg'),w=svg.getBoundingClientRect().width;
var b=f.previousElementSibling.querySelectorAll('button');
b[2].click();b[2].click();
var X=f.getAttribute('data-x').split(' ').map(Number),v=f.getAttribute('data-view').split(' ').map(Number);
out.push('zoom='+Math.round((X[1]-X[0])/(v[1]-v[0]))+' width='+(svg.getBoundingClientRect().width===w));
b[4].click();out.push('reset='+!f.hasAttribute('data-view'));
var p=document.createElement('pre');p.id='probe';p.textContent=out.join('; ');
document.body.appendChild(p)})();
</script>
JS
got=$(probe_page report.html --window-size=1200,2000)
n=$(awk -F, 'NR > 1 { n++; if ($12 == "released") r++; if ($12 == "leaked") l++ } END { print n + r + l }' truth.csv)
eval=$(awk -F, '$4 ~ /eval/ { printf "gpu%s %s %s", $2, $3, $4 }' truth.csv)
expect_eq "probe" "$got" \
    "tips=$n; eval=2:$eval | 00:01:00 to 00:01:40, held 3.0 GiB | released after 25 s ±1 s; anchors=2; zoom=4 width=true; reset=true"
exit 0
