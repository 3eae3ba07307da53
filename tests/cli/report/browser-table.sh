# The task table's filters work in a real browser: a test script added
# to a copy of the page (the report itself has none such) ticks each
# filter as a user would and counts the rows headless Chromium then
# shows; the counts are the synthetic truth's (demo: 4 tasks, 1 leaked,
# 1 released after 10 s or more, 2 on GPU 1, 1 named eval), and the
# delays it draws have the precision the sampling interval gives.
. "$TESTS/lib.sh"
demo_report
want() { awk -F, "NR > 1 && ($1)" truth.csv | wc -l | tr -d ' '; }
# The released tasks' delays as the table shows them: to the second the
# 1 s interval allows, no more ("25 s ±1 s", never "25.000 s").
delays() {
	awk -F, 'NR > 1 && $12 == "released" { printf "%g s \302\261%s s\n", $10, 1 }' truth.csv |
	    LC_ALL=C sort | paste -sd, -
}
cat > probe.js <<'JS'
<script>
(function(){
function $(i){return document.getElementById(i)}
function rows(){return document.querySelectorAll('#tasks tbody tr').length}
function set(id,prop,v,ev){$(id)[prop]=v;$(id).dispatchEvent(new Event(ev))}
var out=['all='+rows()];
set('f-leaked','checked',true,'change');out.push('leaked='+rows());
set('f-leaked','checked',false,'change');
set('f-slow','checked',true,'change');out.push('slow='+rows());
set('f-slow','checked',false,'change');
set('f-gpu','value','/1','change');out.push('gpu1='+rows());
set('f-gpu','value','','change');
set('f-name','value','eval','input');out.push('eval='+rows());
set('f-name','value','','input');
var dl=[];document.querySelectorAll('#tasks tbody tr').forEach(function(r){
 var t=r.cells[7].textContent;if(t.indexOf('\u00b1')>=0)dl.push(t)});
out.push('delays='+dl.sort().join(','));
document.querySelectorAll('#tasks th')[9].click();
out.push('first='+document.querySelector('#tasks tbody tr').className);
var p=document.createElement('pre');p.id='probe';p.textContent=out.join(' ');
document.body.appendChild(p)})();
</script>
JS
got=$(probe_page report.html)
expect_eq "rows" "$got" "all=$(want 1) leaked=$(want '$12 == "leaked"') slow=$(want '$10 >= 10') gpu1=$(want '$2 == 1') eval=$(want '$4 ~ /eval/') delays=$(delays) first=leaked"
exit 0
