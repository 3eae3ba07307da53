/* SPDX-License-Identifier: ISC */
/*
 * template.c: the page's template, apart from the code that fills it:
 * its style sheet, the task table's script and the charts' zoom script,
 * as C strings (one binary, no file read at run time).  page.h says
 * where each goes.
 */
#include "page.h"

const char style[] =
"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
"color:#222;background:#fff;margin:0 auto;max-width:1160px;padding:24px}\n"
"h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;"
"border-bottom:1px solid #ddd;padding-bottom:4px}\n"
".meta{color:#666;margin:0 0 16px}\n"
".cards{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}\n"
".card{border:1px solid #ddd;border-radius:6px;padding:10px 16px;"
"min-width:130px;background:#fafafa}\n"
".card .num{font-size:26px;font-weight:600}.card .lbl{color:#555}\n"
".card .sub{color:#777;font-size:12px}\n"
".card.bad{border-color:#cb181d;background:#fff5f0}"
".card.bad .num{color:#a50f15}\n"
".card.good .num{color:#238b45}\n"
".note{color:#555;font-size:13px}\n"
".warn{border:1px solid #e6550d;background:#fff5eb;padding:8px 12px;"
"border-radius:6px}\n"
"figure{margin:8px 0 16px;overflow-x:auto}figure svg{width:100%;"
"height:auto;display:block}\n"
".zoom{text-align:right;font-size:12px}.zoom button{margin-left:4px}\n"
"table{border-collapse:collapse;width:100%;font-size:13px}\n"
"th,td{padding:4px 8px;border-bottom:1px solid #eee;text-align:left;"
"white-space:nowrap}\n"
"td.n,th.n{text-align:right}\n"
"th{cursor:pointer;background:#f3f3f3;position:sticky;top:0;"
"user-select:none}\n"
"th:hover{background:#e8e8e8}th[data-dir=asc]::after{content:' \\25B2'}"
"th[data-dir=desc]::after{content:' \\25BC'}\n"
"tr.leaked td{background:#fff0ee}tr.running td{color:#666}\n"
"td.name{white-space:normal;max-width:380px}\n"
"footer{margin-top:32px;color:#777;font-size:12px}\n"
"nav.index small{color:#777}\n"
"table.ov{width:auto;border-collapse:separate;border-spacing:2px;"
"font-size:12px;margin:6px 0}\n"
"table.ov th{background:none;cursor:default;position:static;"
"font-weight:600;text-align:right;padding:0 6px}\n"
"table.ov td.c{border:1px solid #ddd;border-left:5px solid;padding:1px 5px;"
"min-width:34px}\ntable.ov td.c a{font-weight:600}\n"
"table.ov td.l1{background:#fee0d2}table.ov td.l2{background:#fc9272}"
"table.ov td.l3{background:#de2d26}table.ov td.l3,table.ov td.l3 a,"
"table.ov td.l3 small{color:#fff}\n"
".legend .swatch{display:inline-block;width:22px;height:12px;"
"margin:0 4px 0 10px;vertical-align:middle;border-radius:2px}\n"
".filters{margin:8px 0;display:flex;flex-wrap:wrap;gap:10px;"
"align-items:center}\n";

/*
 * The task table's script.  The table holds the TOPN most interesting
 * tasks as rows (a page without script still shows them); every task is
 * in the JSON of #taskdata, one array a task (tdcols below), and the
 * script draws the rows again from it when a filter (leaked, slow, GPU,
 * name), a sort (a header's click) or a page asks: the first TOPN of
 * what the filters keep, or with "show all" every one, PAGE rows a page.
 */
const char table_js[] =
"(function(){\n"
"var D=JSON.parse(document.getElementById('taskdata').textContent);\n"
"var T=document.getElementById('tasks'),tb=T.tBodies[0];\n"
"var ths=T.tHead.rows[0].cells,col=-1,up=true,all=false,page=0;\n"
"var hosts=D.hosts>1,ST=['released','leaked','running'];\n"
"function $(i){return document.getElementById(i)}\n"
"function mib(m){return m>=1024?(m/1024).toFixed(1)+' GiB':m+' MiB'}\n"
"function span(t){var d=+t;if(d<60)return t+' s';var h=Math.floor(d/3600),\n"
" m=Math.floor(d%3600/60),x=+(d%60).toFixed(3);return (h?h+' h':'')+\n"
" (m?(h?' ':'')+m+' min':'')+(x?' '+x+' s':'')}\n"
"function clock(s){var d=new Date((D.t0+s+D.zone)*1000).toISOString();\n"
" return D.date?d.slice(0,10)+' '+d.slice(11,19):d.slice(11,19)}\n"
"function esc(x){return String(x).replace(/[&<>\"']/g,function(c){\n"
" return '&#'+c.charCodeAt(0)+';'})}\n"
"function g(r){return D.gpus[r[0]]}\n"
"function key(r,i){var k=i-(hosts?1:0);switch(k){\n"
" case -1:return g(r)[0];case 0:return g(r)[1];case 1:return r[1];\n"
" case 2:return D.names[r[2]].toLowerCase();case 3:return r[3];\n"
" case 4:return r[3]+r[4];case 5:return r[5]||r[6];case 6:return r[6];\n"
" case 7:return r[9]==0?r[7]:-1;case 8:return r[8];\n"
" default:return ST[r[9]]}}\n"
"function row(r){var h='<tr class=\"'+ST[r[9]]+'\">',G=g(r);\n"
" if(hosts)h+='<td>'+esc(G[0])+'</td>';\n"
" h+='<td class=\"n\">'+G[1]+'</td><td class=\"n\">'+r[1]+'</td><td class=\"name\">'+\n"
"  esc(D.names[r[2]])+'</td><td>'+clock(r[3])+'</td><td>'+clock(r[3]+r[4])+\n"
"  '</td><td class=\"n\">'+mib(r[5]||r[6])+'</td><td class=\"n\">'+mib(r[6])+'</td><td class=\"n\">';\n"
" if(r[9]==0)h+=span(r[7].toFixed(G[3]))+(G[2]?' \\u00b1'+G[2]+' s':'');\n"
" else if(r[9]==1&&r[8]>=0&&r[6]-r[8]>D.tol)h+=mib(r[6]-r[8])+' back late';\n"
" else h+='\\u2013';\n"
" h+='</td><td class=\"n\">'+(r[9]==0?'0':r[9]==1&&r[8]>=0?mib(r[8]):'?')+\n"
"  '</td><td>'+ST[r[9]]+'</td></tr>';return h}\n"
"function draw(){var L=$('f-leaked').checked,S=$('f-slow').checked,\n"
" F=$('f-gpu').value,N=$('f-name').value.toLowerCase(),v=[];\n"
" D.rows.forEach(function(r){if(L&&r[9]!=1)return;\n"
"  if(S&&!(r[9]==0&&r[7]>=D.slow))return;\n"
"  if(F!==''&&g(r)[0]+'/'+g(r)[1]!==F)return;\n"
"  if(N&&D.names[r[2]].toLowerCase().indexOf(N)<0&&String(r[1])!==N)return;\n"
"  v.push(r)});\n"
" if(col>=0)v.sort(function(a,b){var x=key(a,col),y=key(b,col);\n"
"  return (x<y?-1:x>y?1:0)*(up?1:-1)});\n"
" var n=all?D.page:D.top,pages=Math.max(1,Math.ceil(v.length/n));\n"
" if(page>=pages)page=pages-1;if(!all)page=0;\n"
" tb.innerHTML=v.slice(page*n,page*n+n).map(row).join('');\n"
" $('f-count').textContent=v.length+' of '+D.rows.length+' tasks'+\n"
"  (v.length>n?', '+(all?'page '+(page+1)+' of '+pages:'the first '+n):'');\n"
" $('f-prev').hidden=$('f-next').hidden=!all||pages<2;\n"
" $('f-all').textContent=all?'show the first '+D.top:'show all'}\n"
"['f-leaked','f-slow','f-gpu'].forEach(function(i){\n"
" $(i).addEventListener('change',function(){page=0;draw()})});\n"
"$('f-name').addEventListener('input',function(){page=0;draw()});\n"
"$('f-all').addEventListener('click',function(){all=!all;page=0;draw()});\n"
"$('f-prev').addEventListener('click',function(){if(page>0)page--;draw()});\n"
"$('f-next').addEventListener('click',function(){page++;draw()});\n"
"Array.prototype.forEach.call(ths,function(th,i){\n"
" th.addEventListener('click',function(){up=col===i?!up:true;col=i;\n"
"  Array.prototype.forEach.call(ths,function(h){h.removeAttribute('data-dir')});\n"
"  th.setAttribute('data-dir',up?'asc':'desc');draw()})});\n"
"$('filters').hidden=false;draw()})();\n";

/*
 * Zoom on a chart's time axis: buttons above each chart widen it (the
 * picture is SVG: it stays sharp) in a frame that scrolls sideways,
 * keeping the time under the middle of the frame in view.
 */
const char zoom_js[] =
"document.querySelectorAll('figure.chart').forEach(function(f){\n"
" var z=1,svg=f.querySelector('svg'),bar=document.createElement('div');\n"
" if(!svg)return;bar.className='zoom';\n"
" function set(k){var mid=(f.scrollLeft+f.clientWidth/2)/f.scrollWidth;\n"
"  z=Math.max(1,Math.min(16,k));svg.style.width=(100*z)+'%';\n"
"  f.scrollLeft=mid*f.scrollWidth-f.clientWidth/2;\n"
"  bar.querySelector('span').textContent=z>1?'\\u00d7'+z:''}\n"
" [['+',2],['\\u2212',0.5],['reset',0]].forEach(function(b){\n"
"  var e=document.createElement('button');e.type='button';\n"
"  e.textContent=b[0];e.title=b[1]?'zoom the time axis':'whole time axis';\n"
"  e.addEventListener('click',function(){set(b[1]?z*b[1]:1)});\n"
"  bar.appendChild(e)});\n"
" bar.appendChild(document.createElement('span'));\n"
" f.parentNode.insertBefore(bar,f)});\n";
