/* SPDX-License-Identifier: ISC */
/*
 * svgzoom.c: the zoom of a chart's time axis in a browser: its script,
 * and what it needs of gnuplot (svgzoom.h).  The report's page and a
 * standalone SVG carry the same script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "esc.h"
#include "svgzoom.h"

/* What the script prints after each picture (svgzoom_ask). */
#define BOX_MARK "<!--gpumem-box "

/*
 * Zoom on the time axis of the charts (figure.chart with data-box, the
 * plot area in SVG pixels, data-x, the time range in gnuplot's x values,
 * and data-xfmt, the time format: drawing_fill writes them).  Only the x
 * of what is plotted changes: at load, each element of the plot area
 * (curves, bars, boxes, labels and markers, found by their coordinates;
 * the key's samples split off) keeps its coordinates, and a zoom writes
 * them again mapped to the new range, clipped to the plot area; nothing
 * is scaled, so lines keep their width and text its size, and the y
 * axis, title, key and labels outside the plot area never move.  A text
 * of the plot area (a Gantt row's delay or leak; not a marker's number)
 * is never cut: one that would cross an edge, zoomed or not, is moved in
 * to it on a tag of its own (a rect of the opposite shade, to be read
 * over the bars); one whose row (the bars its y lies on) shows no bar in
 * the range is hidden, and so is one wider than the plot area.  The
 * time ticks, grid and tick labels gnuplot drew are hidden and drawn
 * again for the range: a nice step (0.1 s to a year) at least a label's
 * width apart, in gnuplot's format, finer as the range narrows by the
 * rule of chart.c's chart_time_axis (a chart with dates keeps them).  Drag
 * across a chart, or its buttons (earlier, later, +, -, reset); the
 * charts of one GPU section zoom together.  In a standalone SVG (its
 * root carries the data-* attributes) drag, and double-click to reset.  window.gpumemZoom(figure,
 * t0, t1) is the function the buttons call (the browser tests call it).
 */
const char svgzoom_js[] =
"(function(){\n"
"var NS='http://www.w3.org/2000/svg',E=0.6,MAXZ=512;\n"
"var STEPS=[0.1,0.2,0.5,1,2,5,10,15,30,60,120,300,600,900,1800,3600,7200,\n"
" 10800,21600,43200,86400,172800,604800,1209600,2592000,7776000,31536000];\n"
"var FMTS=['%m-%d %H:%M','%H:%M','%H:%M:%S','%H:%M:%.1S'];\n"
"function nums(s){return s.trim().split(/[\\s,]+/).map(Number)}\n"
"function pad(n){return (n<10?'0':'')+n}\n"
"function tfmt(t,f){var d=new Date(Math.round(t*1000));\n"
" return f.replace(/%(\\.\\d)?([HMSmdYy%])/g,function(m,p,c){switch(c){\n"
" case 'H':return pad(d.getUTCHours());case 'M':return pad(d.getUTCMinutes());\n"
" case 'S':var s=d.getUTCSeconds();if(!p)return pad(s);\n"
"  s+=d.getUTCMilliseconds()/1000;return (s<10?'0':'')+s.toFixed(+p.slice(1));\n"
" case 'm':return pad(d.getUTCMonth()+1);case 'd':return pad(d.getUTCDate());\n"
" case 'Y':return ''+d.getUTCFullYear();case 'y':return pad(d.getUTCFullYear()%100);\n"
" default:return '%'}})}\n"
"function pickfmt(span,f0){var k0=FMTS.indexOf(f0),\n"
" k=span<=10?3:span<=600?2:span<=129600?1:0;\n"
" if(k0<0)return f0;if(k<k0)k=k0;return (k0==0&&k>0?'%m-%d ':'')+FMTS[k]}\n"
"function parsed(d){var v=[],m,re=/([A-Za-z])([^A-Za-z]*)/g;\n"
" while((m=re.exec(d))){var c=m[1],n=m[2].trim()?nums(m[2]):[];\n"
"  if(c=='M')v.push({p:n,z:false});\n"
"  else if(c=='L'&&v.length)v[v.length-1].p=v[v.length-1].p.concat(n);\n"
"  else if((c=='Z'||c=='z')&&v.length)v[v.length-1].z=true;\n"
"  else return null}\n"
" return v}\n"
"function dtext(v){return v.map(function(s){var o='';\n"
" for(var i=0;i<s.p.length;i+=2)o+=(i?' L':'M')+s.p[i].toFixed(2)+','+s.p[i+1].toFixed(2);\n"
" return o+(s.z?' Z':'')}).join(' ')}\n"
"function chart(f){\n"
" var svg=f.tagName.toLowerCase()=='svg'?f:f.querySelector('svg'),\n"
"  b=nums(f.getAttribute('data-box')),\n"
"  x=nums(f.getAttribute('data-x')),L=b[0],T=b[1],R=b[2],B=b[3],X0=x[0],X1=x[1],\n"
"  f0=f.getAttribute('data-xfmt')||'%H:%M',me={f:f,f0:f0,L:L,R:R,X0:X0,X1:X1,t0:X0,t1:X1},\n"
"  items=[],hide=[],labels=[],tickx=[],grid=null,tick=null,tlen=0,lab=null,at=null,\n"
"  rowl=[],rows=[],MK='" CHART_TIP_FILL "'.replace(/\\s/g,'');\n"
" function inx(v){return v>=L-E&&v<=R+E}\n"
" function iny(v){return v>=T-E&&v<=B+E}\n"
" function inplot(e){for(var p=e.parentNode;p&&p!==svg;p=p.parentNode)\n"
"  if(p.id&&p.id.indexOf('gnuplot_plot_')>=0)return true;return false}\n"
" function inbox(p){for(var i=0;i<p.length;i+=2)if(inx(p[i])&&iny(p[i+1]))return true;\n"
"  return false}\n"
" function top(e){while(e.parentNode&&e.parentNode!==svg&&e.parentNode.parentNode!==svg)\n"
"  e=e.parentNode;return e}\n"
" Array.prototype.forEach.call(svg.querySelectorAll('path,polygon,use,g[transform]'),\n"
" function(e){\n"
"  if(e.closest('defs'))return;\n"
"  var tag=e.tagName.toLowerCase(),m,sp,plot=inplot(e),i;\n"
"  if(tag=='g'||tag=='use'){\n"
"   m=/^translate\\(([-\\d.e]+),([-\\d.e]+)\\)(.*)$/.exec(e.getAttribute('transform')||'');\n"
"   if(!m||(tag=='g'&&!e.querySelector('text')))return;\n"
"   if(inx(+m[1])&&iny(+m[2])){var w=document.createElementNS(NS,'g');\n"
"    e.parentNode.insertBefore(w,e);w.appendChild(e);\n"
"    items.push({e:e,w:w,a:'transform',o:m[0],x:+m[1],y:m[2],r:m[3],\n"
"     t:e.querySelector('text')})}\n"
"   else if(tag=='g'&&+m[2]>B)labels.push({e:e,x:+m[1],y:+m[2]});\n"
"   else if(tag=='g'&&+m[1]<L&&iny(+m[2]))rowl.push({e:e,x:+m[1],y:+m[2],r:m[3],o:m[0]});\n"
"   return}\n"
"  if(tag=='polygon'){sp=[{p:nums(e.getAttribute('points')),z:false}];\n"
"   if(inbox(sp[0].p))items.push({e:e,a:'points',o:e.getAttribute('points'),v:sp,\n"
"    mk:(e.getAttribute('fill')||'').replace(/\\s/g,'')==MK});\n"
"   return}\n"
"  if(!(sp=parsed(e.getAttribute('d')||''))||!sp.length)return;\n"
"  if(!plot){\n"
"   var vert=sp.every(function(s){for(i=2;i<s.p.length;i+=2)\n"
"    if(Math.abs(s.p[i]-s.p[0])>E)return false;return s.p.length>2&&inx(s.p[0])});\n"
"   var gl=e.getAttribute('class')=='gridline';\n"
"   var short=sp.every(function(s){var y0=s.p[1],y1=s.p[s.p.length-1];\n"
"    return Math.abs(y1-y0)<(B-T)/4&&(Math.abs(y0-B)<E||Math.abs(y0-T)<E)});\n"
"   if(vert&&(gl||short)){hide.push(e);at=at||top(e);\n"
"    sp.forEach(function(s){tickx.push(s.p[0]);\n"
"     if(!gl&&Math.abs(s.p[3]-s.p[1])>tlen){tlen=Math.abs(s.p[3]-s.p[1]);tick=e}});\n"
"    if(gl)grid=grid||e;return}\n"
"   var lo=1e9,hi=-1e9;sp.forEach(function(s){for(i=0;i<s.p.length;i+=2){\n"
"    lo=Math.min(lo,s.p[i]);hi=Math.max(hi,s.p[i])}});\n"
"   if(lo<=L+E&&hi>=R-E)return}\n"
"  var iv=sp.filter(function(s){return inbox(s.p)}),ov=sp.filter(function(s){return !inbox(s.p)});\n"
"  if(!iv.length)return;\n"
"  if(ov.length){var c=e.cloneNode(false);c.setAttribute('d',dtext(ov));\n"
"   e.parentNode.insertBefore(c,e);e.setAttribute('d',dtext(iv))}\n"
"  items.push({e:e,a:'d',o:e.getAttribute('d'),v:iv})});\n"
" labels.forEach(function(l){if(tickx.some(function(t){return Math.abs(t-l.x)<E})){\n"
"  hide.push(l.e);lab=lab||l}});\n"
" function ext(p,k){var lo=1e9,hi=-1e9;for(var i=k;i<p.length;i+=2){\n"
"  lo=Math.min(lo,p[i]);hi=Math.max(hi,p[i])}return [lo,hi]}\n"
" items.forEach(function(b){if(!b.mk)return;var x=ext(b.v[0].p,0),y=ext(b.v[0].p,1);\n"
"  b.cx=(x[0]+x[1])/2;b.hw=(x[1]-x[0])/2;\n"
"  items.forEach(function(t){if(t.a=='transform'&&Math.abs(t.x-b.cx)<1&&+t.y>=y[0]&&+t.y<=y[1]+3)\n"
"   t.box=b})});\n"
" items.forEach(function(t){if(!t.t||t.box)return;t.lab=1;\n"
"  t.tag=/255,\\s*255,\\s*255/.test(t.e.getAttribute('fill')||'')?'#333333':'#ffffff';\n"
"  t.bars=items.filter(function(b){if(b.a!='points'||b.mk)return false;\n"
"   var y=ext(b.v[0].p,1);return +t.y>=y[0]-E&&+t.y<=y[1]+3})});\n"
" if(f.classList&&f.classList.contains('gantt')&&rowl.length>1){\n"
"  rowl.sort(function(a,c){return a.y-c.y});var pitch=1e9;\n"
"  rowl.forEach(function(l,i){if(i)pitch=Math.min(pitch,l.y-rowl[i-1].y)});\n"
"  rows=rowl.map(function(l){return {l:l,y:l.y,its:[]}});\n"
"  items.forEach(function(it){var yc,r,y;\n"
"   if(it.a=='transform')yc=+it.y;else if(it.a=='points'){y=ext(it.v[0].p,1);\n"
"    if(y[1]-y[0]>=pitch)return;yc=(y[0]+y[1])/2}else return;\n"
"   r=rows.reduce(function(a,c){return Math.abs(c.y-yc)<Math.abs(a.y-yc)?c:a});\n"
"   if(Math.abs(r.y-yc)<pitch/2){r.its.push(it);it.row=r}})}\n"
" var cid,defs=document.createElementNS(NS,'clipPath'),\n"
"  cr=document.createElementNS(NS,'rect'),zt=document.createElementNS(NS,'g');\n"
" cid='zc'+(++chart.n);defs.id=cid;cr.setAttribute('x',L);cr.setAttribute('y',0);\n"
" cr.setAttribute('width',R-L);cr.setAttribute('height',B+T);\n"
" defs.appendChild(cr);svg.appendChild(defs);zt.setAttribute('class','zticks');\n"
" if(at)at.parentNode.insertBefore(zt,at);else svg.appendChild(zt);\n"
" me.set=function(t0,t1){var min=(X1-X0)/MAXZ,mid;\n"
"  if(t1-t0<min){mid=(t0+t1)/2;t0=mid-min/2;t1=mid+min/2}\n"
"  if(t1-t0>=X1-X0){t0=X0;t1=X1}\n"
"  if(t0<X0){t1+=X0-t0;t0=X0}if(t1>X1){t0-=t1-X1;t1=X1}\n"
"  var full=t0<=X0&&t1>=X1,k=(X1-X0)/(t1-t0),v0=L+(t0-X0)*(R-L)/(X1-X0);\n"
"  function mx(x){return L+(x-v0)*k}\n"
"  me.t0=t0;me.t1=t1;\n"
"  var slot=0;\n"
"  rows.forEach(function(r){var bars=r.its.filter(function(it){return it.a=='points'});\n"
"   r.vis=full||!bars.length||bars.some(function(it){var x=ext(it.v[0].p,0);\n"
"    return mx(x[1])>L+E&&mx(x[0])<R-E});\n"
"   r.dy=r.vis?rows[slot++].y-r.y:0;\n"
"   if(r.vis)r.l.e.removeAttribute('display');else r.l.e.setAttribute('display','none');\n"
"   r.l.e.setAttribute('transform',r.dy?'translate('+r.l.x+','+(r.l.y+r.dy).toFixed(2)+')'+r.l.r:r.l.o)});\n"
"  items.forEach(function(it){if(!it.mk)return;it.nc=mx(it.cx);it.out=it.nc<L-E||it.nc>R+E;\n"
"   it.nc=Math.max(L+it.hw,Math.min(R-it.hw,it.nc))});\n"
"  items.forEach(function(it){if(!it.lab)return;var x=mx(it.x),l,s=0,bb;\n"
"   if(!it.tw){it.w.removeAttribute('display');bb=it.t.getBBox();\n"
"    it.tx=bb.x;it.tw=bb.width;it.ty=bb.y;it.th=bb.height}\n"
"   l=x+it.tx;if(l+it.tw>R-0.005)s=R-3-l-it.tw;if(l+s<L+0.005)s=L+3-l;\n"
"   it.nx=x+s;it.moved=Math.abs(s)>0.005;\n"
"   it.gone=it.tw>R-L-6||!full&&it.bars.length>0&&!it.bars.some(function(b){\n"
"    var x=ext(b.v[0].p,0);return mx(x[1])>L+E&&mx(x[0])<R-E});\n"
"   if(it.moved&&!it.bg){it.bg=document.createElementNS(NS,'rect');\n"
"    [['x',it.tx-2],['y',it.ty],['width',it.tw+4],['height',it.th],['rx',2],['fill',it.tag],\n"
"     ['fill-opacity',0.85]].forEach(function(a){it.bg.setAttribute(a[0],a[1])});\n"
"    it.e.insertBefore(it.bg,it.t)}\n"
"   if(!it.moved&&it.bg){it.e.removeChild(it.bg);it.bg=null}});\n"
"  items.forEach(function(it){\n"
"   var c=it.w||it.e,dy=it.row?it.row.dy:0,sh=null;\n"
"   var off=it.lab&&it.gone||!full&&(it.row?!it.row.vis:it.mk?it.out:it.box?it.box.out:false);\n"
"   if(off)c.setAttribute('display','none');else c.removeAttribute('display');\n"
"   if(full)c.removeAttribute('clip-path');else c.setAttribute('clip-path','url(#'+cid+')');\n"
"   if(full&&!it.moved){it.e.setAttribute(it.a,it.o);return}\n"
"   if(it.a=='transform'){it.e.setAttribute('transform','translate('+\n"
"    (it.box?it.box.nc:it.lab?it.nx:mx(it.x)).toFixed(2)+','+(dy?(+it.y+dy).toFixed(2):it.y)+')'+it.r);return}\n"
"   if(it.mk)sh=it.nc-it.cx;\n"
"   var v=it.v.map(function(s){var p=s.p.slice();\n"
"    for(var i=0;i<p.length;i+=2){p[i]=sh!==null?p[i]+sh:mx(p[i]);p[i+1]+=dy}\n"
"    return {p:p,z:s.z}});\n"
"    it.e.setAttribute(it.a,it.a=='d'?dtext(v):dtext(v).replace(/[MLZ] ?/g,''))});\n"
"  hide.forEach(function(e){if(full)e.removeAttribute('display');else e.setAttribute('display','none')});\n"
"  while(zt.firstChild)zt.removeChild(zt.firstChild);\n"
"  if(full){f.removeAttribute('data-view');return}\n"
"  f.setAttribute('data-view',t0.toFixed(3)+' '+t1.toFixed(3));\n"
"  var fm=pickfmt(t1-t0,f0),px=6*tfmt(t0,fm).length+24,s=STEPS[STEPS.length-1],i;\n"
"  for(i=0;i<STEPS.length;i++)if(STEPS[i]*(R-L)/(t1-t0)>=px){s=STEPS[i];break}\n"
"  for(i=Math.ceil(t0/s-1e-9);i*s<=t1+1e-9;i++){var t=i*s,xx=L+(t-t0)*(R-L)/(t1-t0),e;\n"
"   if(grid){e=grid.cloneNode(false);e.removeAttribute('display');\n"
"    e.setAttribute('d','M'+xx.toFixed(2)+','+B+' L'+xx.toFixed(2)+','+T);zt.appendChild(e)}\n"
"   if(tick){e=tick.cloneNode(false);e.removeAttribute('display');e.setAttribute('d','M'+xx.toFixed(2)+\n"
"    ','+B+' L'+xx.toFixed(2)+','+(B-tlen)+' M'+xx.toFixed(2)+','+T+' L'+xx.toFixed(2)+\n"
"    ','+(T+tlen));zt.appendChild(e)}\n"
"   if(lab){e=lab.e.cloneNode(true);e.removeAttribute('display');\n"
"    e.setAttribute('transform','translate('+xx.toFixed(2)+','+lab.y+')');\n"
"    e.querySelector('text').textContent=tfmt(t,fm);zt.appendChild(e)}}};\n"
" me.svgx=function(ev){var r=svg.getBoundingClientRect(),w=svg.viewBox.baseVal&&\n"
"  svg.viewBox.baseVal.width||r.width;return (ev.clientX-r.left)*w/r.width};\n"
" me.time=function(sx){return me.t0+(sx-L)*(me.t1-me.t0)/(R-L)};\n"
" var sel=null,sx0=0;\n"
" svg.addEventListener('mousedown',function(ev){var sx=me.svgx(ev);\n"
"  if(ev.button!==0||sx<L||sx>R)return;ev.preventDefault();sx0=sx;\n"
"  sel=document.createElementNS(NS,'rect');sel.setAttribute('class','zsel');\n"
"  sel.setAttribute('fill','#3182bd');sel.setAttribute('fill-opacity','0.15');\n"
"  sel.setAttribute('y',T);sel.setAttribute('height',B-T);sel.setAttribute('x',sx);\n"
"  sel.setAttribute('width',0);svg.appendChild(sel)});\n"
" svg.addEventListener('mousemove',function(ev){if(!sel)return;\n"
"  var sx=Math.max(L,Math.min(R,me.svgx(ev)));\n"
"  sel.setAttribute('x',Math.min(sx,sx0));sel.setAttribute('width',Math.abs(sx-sx0))});\n"
" function up(ev){if(!sel)return;var sx=Math.max(L,Math.min(R,me.svgx(ev)));\n"
"  svg.removeChild(sel);sel=null;\n"
"  if(Math.abs(sx-sx0)>3)zoom(f,me.time(Math.min(sx,sx0)),me.time(Math.max(sx,sx0)))}\n"
" svg.addEventListener('mouseup',up);svg.addEventListener('mouseleave',up);\n"
" return me}\n"
"chart.n=0;\n"
"var all=[];\n"
"function peers(f){var s=f.closest('section')||f;\n"
" return all.filter(function(c){return c.f===f||c.f.closest('section')===s})}\n"
"function zoom(f,t0,t1){peers(f).forEach(function(c){c.set(t0,t1);\n"
" var bar=c.f.previousElementSibling,sp=bar&&bar.querySelector('span');\n"
" if(sp)sp.textContent=c.f.hasAttribute('data-view')?tfmt(c.t0,pickfmt(c.t1-c.t0,c.f0))+\n"
"  ' to '+tfmt(c.t1,pickfmt(c.t1-c.t0,c.f0)):'drag across a chart to zoom its time'})}\n"
"window.gpumemZoom=zoom;\n"
"document.querySelectorAll('figure.chart[data-box]').forEach(function(f){\n"
" if(!f.querySelector('svg'))return;var c=chart(f),bar=document.createElement('div');\n"
" all.push(c);bar.className='zoom';\n"
" [['\\u25c0',-0.5,'earlier'],['\\u25b6',0.5,'later'],['+',0.5,'zoom in on the time axis'],\n"
"  ['\\u2212',2,'zoom out'],['reset',0,'the whole time axis']].forEach(function(b,i){\n"
"  var e=document.createElement('button');e.type='button';e.textContent=b[0];e.title=b[2];\n"
"  e.addEventListener('click',function(){var w=c.t1-c.t0,m=(c.t0+c.t1)/2;\n"
"   if(!b[1])zoom(f,c.X0,c.X1);else if(i<2)zoom(f,c.t0+b[1]*w,c.t1+b[1]*w);\n"
"   else zoom(f,m-w*b[1]/2,m+w*b[1]/2)});\n"
"  bar.appendChild(e)});\n"
" bar.insertBefore(document.createElement('span'),bar.firstChild);\n"
" f.parentNode.insertBefore(bar,f)});\n"
"var r=document.documentElement;\n"
"if(r&&r.tagName.toLowerCase()=='svg'&&r.hasAttribute('data-box')){var c=chart(r);\n"
" all.push(c);r.addEventListener('dblclick',function(){zoom(r,c.X0,c.X1)})}\n"
"all.forEach(function(c){zoom(c.f,c.X0,c.X1)})})();\n";

void
svgzoom_init(struct svgbox *b, const struct sbuf *script)
{
	const char *fmt;
	size_t len;

	memset(b, 0, sizeof(*b));
	if (script->buf != NULL &&
	    (fmt = strstr(script->buf, "set format x '")) != NULL) {
		fmt += 14;
		if ((len = strcspn(fmt, "'\n")) < sizeof(b->xfmt))
			snprintf(b->xfmt, sizeof(b->xfmt), "%.*s", (int)len,
			    fmt);
	}
}

void
svgzoom_ask(struct sbuf *script)
{
	/* In SVG pixels, y down; printed to standard output after it. */
	sbuf_adds(script, "set print '-'\n"
	    "if (exists('GPVAL_TERM_XMIN') && exists('GPVAL_TERM_SCALE') &&"
	    " exists('GPVAL_X_MIN')) "
	    "print sprintf('" BOX_MARK "%.2f %.2f %.2f %.2f %.3f %.3f-->', "
	    "GPVAL_TERM_XMIN, GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE - "
	    "GPVAL_TERM_YMAX, GPVAL_TERM_XMAX, GPVAL_TERM_YSIZE / "
	    "GPVAL_TERM_SCALE - GPVAL_TERM_YMIN, GPVAL_X_MIN, GPVAL_X_MAX)\n"
	    "set print\n");
}

size_t
svgzoom_told(const char *p, struct svgbox *b)
{
	const char *s = p, *mark;

	while (*s == '\n')
		s++;
	if (strncmp(s, BOX_MARK, strlen(BOX_MARK)) != 0 ||
	    (mark = strstr(s, "-->")) == NULL)
		return 0;
	b->has = sscanf(s + strlen(BOX_MARK), "%lf %lf %lf %lf %lf %lf",
	    &b->box[0], &b->box[1], &b->box[2], &b->box[3], &b->x0,
	    &b->x1) == 6 && b->box[2] > b->box[0] && b->box[3] > b->box[1] &&
	    b->x1 > b->x0;
	return (size_t)(mark + 3 - p);
}

void
svgzoom_attrs(struct sbuf *out, const struct svgbox *b)
{
	if (!b->has)
		return;
	sbuf_printf(out, " data-box=\"%.2f %.2f %.2f %.2f\" data-x=\"%.3f "
	    "%.3f\" data-xfmt=\"", b->box[0], b->box[1], b->box[2], b->box[3],
	    b->x0, b->x1);
	esc_xml(out, b->xfmt, 1);
	sbuf_addc(out, '"');
}

int
svgzoom_standalone(struct sbuf *out, const char *svg, size_t len,
    struct svgbox *b)
{
	const char *root, *tagend, *end;

	if ((root = strstr(svg, "<svg")) == NULL ||
	    (tagend = strchr(root, '>')) == NULL ||
	    (end = strstr(tagend, "</svg>")) == NULL || end >= svg + len)
		return -1;
	svgzoom_told(end + 6, b);
	if (!b->has) {
		sbuf_add(out, svg, (size_t)(end + 6 - svg));
		sbuf_addc(out, '\n');
		return 0;
	}
	sbuf_add(out, svg, (size_t)(root + 4 - svg));
	svgzoom_attrs(out, b);
	sbuf_add(out, root + 4, (size_t)(end - root - 4));
	sbuf_printf(out, "<script type=\"text/javascript\"><![CDATA[\n%s]]>"
	    "</script>\n</svg>\n", svgzoom_js);
	return 0;
}
