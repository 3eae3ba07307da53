# Figures for people in every summary: a delay of a minute or more as
# hours, minutes and seconds, memory of a GiB or more in GiB, as the
# tables say them.  Built with awk: a task (pid 7) holds 3072 MiB from
# 0:00:05 to 0:00:10, its memory comes back 1 h 2 min 5 s after its end;
# another (pid 8) holds 2048 MiB from 0:00:20 to the end of its GPU's
# log and never gives it back (GPU 1).  gpumem tasks' summary line, the
# report's cards, its overview's tooltip and its task table (as written,
# and as the page's script draws it in headless Chromium) say so.
. "$TESTS/lib.sh"
awk 'BEGIN {
	t0 = 1767225600
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (s = 0; s < 3800; s++) {
		u = s >= 5 && s < 3735 ? 3072 : 0
		printf "%d000000000,,0,0,%d,%d,16384,\n", t0 + s, u, 16384 - u
		if (s >= 5 && s <= 10)
			printf "%d000000000,,0,7,%d,,,slow\n", t0 + s, s < 10 ? 3072 : 0
		if (s < 30) {
			u = s >= 20 ? 2048 : 0
			printf "%d000000000,,1,0,%d,%d,16384,\n", t0 + s, u, 16384 - u
			if (s >= 20)
				printf "%d000000000,,1,8,%d,,,leaky\n", t0 + s, s < 29 ? 2048 : 0
		}
	}
}' > units.csv
gpumem-tasks -o tasks.csv units.csv 2> err.txt || die "tasks: exit $?"
expect_eq "summary" "$(cat err.txt)" "gpumem-tasks: 2 tasks: 1 released (longest after 1 h 2 min 5 s ±1 s), 1 leaked (2.0 GiB never came back), 0 running"
mkdir empty
PATH=$PWD/empty "$GPUMEM_BIN/gpumem-report" -q -o report.html units.csv || die "report: exit $?"
grep -q '<div class="num">1 h 2 min 5 s</div><div class="lbl">max delay</div>' report.html ||
	die "max delay: $(grep -o '<div class="num">[^<]*</div><div class="lbl">max delay' report.html)"
grep -q '<div class="sub">2.0 GiB never came back' report.html || die "no leak in GiB"
grep -q 'title="GPU 0: 1 task, longest release delay 1 h 2 min 5 s"' report.html ||
	die "tooltip: $(grep -o 'title="GPU 0[^"]*"' report.html)"
grep -q '>1 h 2 min 5 s &plusmn;1 s</td>' report.html || die "table cell"
[ "$VARIANT" = normal ] || exit 0
command -v chromium > /dev/null 2>&1 || exit 0
cat > probe.js <<'JS'
<script>
(function(){
document.getElementById('f-slow').checked=true;
document.getElementById('f-slow').dispatchEvent(new Event('change'));
var r=document.querySelector('#tasks tbody tr');
var p=document.createElement('pre');p.id='probe';p.textContent=r.cells[7].textContent;
document.body.appendChild(p)})();
</script>
JS
expect_eq "drawn by the script" "$(probe_page report.html)" "1 h 2 min 5 s ±1 s"
exit 0
