# The usage charts in a real browser carry tooltips (SVG <title>s) like
# the Gantt bars: each leak block says its task, what it leaked and since
# when; each column of the curves (at most 300 a page, so 150 on each of
# the demo's 2 GPUs, which have more samples) says the time of its last
# sample and the usage, attributed and unattributed MiB there, which
# must be the sample's as the CSV says: usage is total - free of the
# device's row, attributed the sum of the processes' rows at that time.
. "$TESTS/lib.sh"
demo_report --utc
cat > probe.js <<'JS'
<script>
(function(){
var out=[];
document.querySelectorAll('figure.usage').forEach(function(f,i){
 f.querySelectorAll('polygon > title').forEach(function(e){
  out.push(i+' '+e.textContent.replace(/\n/g,' | '))})});
var p=document.createElement('pre');p.id='probe';p.textContent=out.join('\n');
document.body.appendChild(p)})();
</script>
JS
probe_page report.html --window-size=1200,2000 > tips.txt
expect_eq "usage tooltips" "$(grep -c ' usage ' tips.txt)" 300
expect_eq "per GPU" "$(grep ' usage ' tips.txt | cut -c1 | uniq -c | tr -s ' ')" " 150 0
 150 1"
# The leak block: the truth's leaked task, its end as the time.
leak=$(awk -F, '$12 == "leaked" { s = substr($6, 1, 10) % 86400
    printf "%s gpu%s %s %s | leaked %s MiB since %02d:%02d:%02d", $2, $2,
    $3, $4, $11, s / 3600, s % 3600 / 60, s % 60 }' truth.csv)
expect_eq "leak tooltip" "$(grep 'since' tips.txt)" "$leak"
# Each column against the CSV's samples.
grep ' usage ' tips.txt > tips-cols.txt
bad=$(awk -F, 'FNR == 1 { next }
    NR == FNR { s = substr($1, 1, 10) % 86400
	k = sprintf("%s %02d:%02d:%02d", $3, s / 3600, s % 3600 / 60, s % 60)
	if ($4 == 0) use[k] = $7 - $6; else att[k] += $5; next }
    { split($0, w, " "); k = w[1] " " w[2]
	want = sprintf("%s | usage %d MiB, attributed %d MiB, unattributed %d MiB",
	    k, use[k], att[k], use[k] - att[k])
	if (!(k in use) || $0 != want) { print "got " $0 " want " want; n++ } }
    END { exit n > 0 }' demo.csv FS=' ' tips-cols.txt 2>&1) || die "columns: $bad"
exit 0
