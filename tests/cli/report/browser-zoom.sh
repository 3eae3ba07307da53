# The zoom changes the time axis only, in a real browser (headless
# Chromium, a test script added to a copy of the page): zoomed to a
# minute by the function the buttons call, the y axis's labels, the
# title and the key keep their place (the SVG's coordinates and the
# browser's boxes) and their font size; the time tick labels are redrawn
# every 10 s from 00:01:00 to 00:02:00 (the truth: a minute of the
# demo, 704 px wide, a label about 70 px); the Gantt chart of the same
# GPU follows, its bar of eval.py (truth.csv: 00:01:00 to 00:01:40) now
# from the plot's left edge across two thirds of it; the plot area
# clips; reset gives the picture back as it was.  A drag across a chart
# zooms it too, and a two-day chart keeps its dates on the ticks.  Markers
# and Gantt rows: see below.
. "$TESTS/lib.sh"
demo_report --utc
cat > probe.js <<'JS'
<script>
(function(){
function q(e,s){return Array.prototype.slice.call(e.querySelectorAll(s))}
function tr(g){return /translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute('transform')||'')}
function els(f,pick){var b=f.getAttribute('data-box').split(' ').map(Number);
 return q(f,'g[transform]').filter(function(g){var m=tr(g),t=g.querySelector('text');
  return m&&t&&!g.closest('[display=none]')&&pick(+m[1],+m[2],b)})}
function desc(v){return v.map(function(g){
  var t=g.querySelector('text'),r=t.getBoundingClientRect();
  return t.textContent+'@'+tr(g)[1]+','+tr(g)[2]+'/'+getComputedStyle(t).fontSize+
   '/'+Math.round(r.left)+','+Math.round(r.top)}).join(' ')}
function texts(f,pick){return desc(els(f,pick))}
function tick(y,b){return y>b[3]+8&&y<b[3]+25}
function fixed(x,y,b){return (x<b[0]||y<b[1]||x>b[2])&&!tick(y,b)}
function ticks(f){return texts(f,function(x,y,b){return tick(y,b)}).replace(/@[^ ]*/g,'')}
var out=[],u=q(document,'figure.chart.usage')[0],g=q(document,'figure.chart.gantt')[0];
var x0=+u.getAttribute('data-x').split(' ')[0],b=g.getAttribute('data-box').split(' ').map(Number);
var eu=els(u,fixed),eg=els(g,fixed),fu=desc(eu),fg=desc(eg),before=u.querySelector('svg').innerHTML;
out.push('bars='+q(u.parentNode,'.zoom').length+' buttons='+q(u.previousElementSibling,'button').length);
gpumemZoom(u,x0+60,x0+120);
out.push('kept='+(desc(eu)===fu)+','+(desc(eg)===fg)+' y='+(fu.indexOf(' 25@')>0));
out.push('span='+u.previousElementSibling.querySelector('span').textContent);
out.push('ticks='+ticks(u));
out.push('gantt='+ticks(g));
var bar=q(g,'polygon').filter(function(p){var t=p.querySelector('title');
 return t&&t.textContent.indexOf('eval.py')>0})[0].getAttribute('points').split(/[ ,]+/).map(Number);
out.push('bar='+(Math.abs(bar[0]-b[0])<0.3)+','+(Math.abs(bar[2]-(b[0]+(b[2]-b[0])*40/60))<0.3));
out.push('clipped='+(q(u,'[clip-path]').length>9));
gpumemZoom(u,x0,x0+1e6);
out.push('reset='+(u.querySelector('svg').innerHTML===before)+' view='+u.hasAttribute('data-view'));
var s=q(document,'figure.chart.gantt')[1].querySelector('svg'),r=s.getBoundingClientRect(),
 k=r.width/s.viewBox.baseVal.width;
function ev(t,x){s.dispatchEvent(new MouseEvent(t,{bubbles:true,button:0,
 clientX:r.left+x*k,clientY:r.top+100*k}))}
ev('mousedown',b[0]+(b[2]-b[0])/4);ev('mousemove',b[0]+(b[2]-b[0])/2);ev('mouseup',b[0]+(b[2]-b[0])/2);
var v=s.parentNode.getAttribute('data-view').split(' ').map(Number),X=s.parentNode.getAttribute('data-x').split(' ').map(Number);
out.push('drag='+((v[0]-X[0])/(X[1]-X[0])).toFixed(2)+','+((v[1]-X[0])/(X[1]-X[0])).toFixed(2));
var p=document.createElement('pre');p.id='probe';p.textContent=out.join('\n');
document.body.appendChild(p)})();
</script>
JS
got=$(probe_page report.html --window-size=1200,2000)
expect_eq "probe" "$got" "bars=2 buttons=5
kept=true,true y=true
span=00:01:00 to 00:02:00
ticks=00:01:00 00:01:10 00:01:20 00:01:30 00:01:40 00:01:50 00:02:00
gantt=00:01:00 00:01:10 00:01:20 00:01:30 00:01:40 00:01:50 00:02:00
bar=true,true
clipped=true
reset=true view=false
drag=0.25,0.50"

# Zoomed to a minute, each numbered marker keeps its width and stays
# whole: marker 1 (eval.py's end, 00:01:40) centred on its end line two
# thirds across, marker 2 (train.py's, 00:02:00, the right end of the
# range) moved left inside the plot area, its number on its box's
# middle.  Zoomed past both ends (00:02:03 to 00:03:00) the markers are
# hidden, and so is the Gantt row of train.py, whose memory came back
# at 00:02:02 (truth.csv): eval.py's row, held until 00:02:05, takes
# the first row's place, its label and its bar.  Reset gives it back.
cat > probe.js <<'JS'
<script>
(function(){
function q(e,s){return Array.prototype.slice.call(e.querySelectorAll(s))}
function pts(p){return p.getAttribute('points').trim().split(/[ ,]+/).map(Number)}
function ext(a,k){var v=a.filter(function(x,i){return i%2==k});return [Math.min.apply(0,v),Math.max.apply(0,v)]}
var u=q(document,'figure.chart.usage')[0],g=q(document,'figure.chart.gantt')[0],out=[];
var b=u.getAttribute('data-box').split(' ').map(Number),x0=+u.getAttribute('data-x').split(' ')[0];
function marks(){return q(u,'polygon').filter(function(p){return /^[0-9]+\. /.test((p.querySelector('title')||{}).textContent||'')})}
function w(p){var x=ext(pts(p),0);return x[1]-x[0]}
function num(p){var n=/^([0-9]+)/.exec(p.querySelector('title').textContent)[1],x=ext(pts(p),0);
 return q(u,'g[transform]').filter(function(t){var e=t.querySelector('text');return e&&e.textContent===n&&
  Math.abs(+/translate\(([-\d.]+)/.exec(t.getAttribute('transform'))[1]-(x[0]+x[1])/2)<0.05}).length}
function shown(e){return !e.closest('[display=none]')}
var m=marks(),w0=m.map(w),bu=u.querySelector('svg').innerHTML,bg=g.querySelector('svg').innerHTML;
function rows(){return q(g,'g[transform]').filter(function(t){var x=+/translate\(([-\d.]+)/.exec(t.getAttribute('transform'))[1];
 return x<+g.getAttribute('data-box').split(' ')[0]&&shown(t)}).map(function(t){
 return t.querySelector('text').textContent+'@'+/,([-\d.]+)\)/.exec(t.getAttribute('transform'))[1]}).join(' ')}
var r0=rows();
var top=q(g,'polygon').filter(function(p){return /train\.py/.test((p.querySelector('title')||{}).textContent||'')}).map(function(p){return ext(pts(p),1).join(',')})[0];
gpumemZoom(u,x0+60,x0+120);
var c1=ext(pts(m[0]),0),c2=ext(pts(m[1]),0);
out.push('widths='+m.map(function(p,i){return Math.abs(w(p)-w0[i])<0.05}).join(','));
out.push('one='+(Math.abs((c1[0]+c1[1])/2-(b[0]+(b[2]-b[0])*40/60))<0.05)+' two='+(Math.abs(c2[1]-b[2])<0.05)+' numbers='+num(m[0])+','+num(m[1]));
out.push('rows='+rows().replace(/@[^ ]*/g,''));
gpumemZoom(u,x0+123,x0+180);
out.push('hidden marks='+marks().filter(function(p){return !shown(p)}).length);
var r1=rows(),bars1=q(g,'polygon').filter(function(p){return /eval\.py/.test((p.querySelector('title')||{}).textContent||'')&&shown(p)}).map(function(p){return ext(pts(p),1).join(',')});
out.push('rows='+r1.replace(/@[^ ]*/g,'')+' first='+(r1.split('@')[1]===r0.split('@')[1].split(' ')[0]));
out.push('bar='+(bars1.length>0&&bars1.every(function(y){y=y.split(',');var t=top.split(',');
 return Math.abs(y[0]-t[0])<0.05&&Math.abs(y[1]-t[1])<0.05})));
gpumemZoom(u,x0,x0+1e6);
out.push('reset='+(u.querySelector('svg').innerHTML===bu)+','+(g.querySelector('svg').innerHTML===bg)+' rows='+(rows()===r0));
var p=document.createElement('pre');p.id='probe';p.textContent=out.join('\n');
document.body.appendChild(p)})();
</script>
JS
got=$(probe_page report.html --window-size=1200,2000)
expect_eq "markers and rows" "$got" "widths=true,true
one=true two=true numbers=1,1
rows=gpu0 9001 python3 train.py gpu0 9002 python3 eval.py
hidden marks=2
rows=gpu0 9002 python3 eval.py first=true
bar=true
reset=true,true rows=true"

# Two days: an hour of the second, its ticks every 10 minutes, dated.
gpumem-synth -s random --duration 2d --gpus 1 --interval 600s > days.csv
gpumem-report -q --utc -o days.html days.csv || die "report: exit $?"
cat > probe.js <<'JS'
<script>
(function(){
var f=document.querySelector('figure.chart.usage'),b=f.getAttribute('data-box').split(' ').map(Number);
gpumemZoom(f,Date.UTC(2026,0,2)/1000,Date.UTC(2026,0,2,1)/1000);
var t=Array.prototype.filter.call(f.querySelectorAll('g[transform]'),function(g){
 var m=/translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute('transform'));
 return m&&+m[2]>b[3]+8&&+m[2]<b[3]+25&&!g.closest('[display=none]')}).map(function(g){
 return g.querySelector('text').textContent});
var p=document.createElement('pre');p.id='probe';p.textContent=f.getAttribute('data-xfmt')+': '+t.join(',');
document.body.appendChild(p)})();
</script>
JS
got=$(probe_page days.html --window-size=1200,1200)
expect_eq "two days" "$got" "%m-%d %H:%M: 01-02 00:00,01-02 00:10,01-02 00:20,01-02 00:30,01-02 00:40,01-02 00:50,01-02 01:00"
exit 0
