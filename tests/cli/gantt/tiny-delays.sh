# Every delay under half a millisecond still gives a chart: the colour
# scale of delays was printed [0:0.000], which gnuplot refuses ("Can't plot
# with an empty cb range") and no chart was drawn.  A task table as gpumem
# tasks writes it, delays of 0.2 and 0.4 ms.
. "$TESTS/lib.sh"
cat > tasks.csv <<'CSV'
host,gpu,process_id,name,start,end,peak_mib,held_mib,release,release_delay_s,leaked_mib,status,delay_min_s,delay_max_s,note
,0,1201,pytest,1767225603000000000,1767225615000000000,2048,2048,1767225615000200000,0.0002,0,released,0.000,0.0004,
,0,1202,pytest,1767225618000000000,1767225630000000000,3072,3072,1767225630000400000,0.0004,0,released,0.000,0.0004,
CSV
gpumem-gantt --script tasks.csv | grep '^set cbrange'
for t in svg png dumb; do
	rc=0; gpumem-gantt -q -T $t -o chart.$t tasks.csv || rc=$?
	echo "$t: exit $rc"
	[ -s chart.$t ] || die "no $t chart"
done
grep -c '<polygon' chart.svg >/dev/null || die "the SVG chart has no bars"
