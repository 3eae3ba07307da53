# Values at their limits go through every tool exactly: timestamps 0 and
# 2^64-1, memory 2^32-1, pid 0 and 2^32-1, GPU 2^32-1, free above total;
# one past each limit is a bad line, named and counted.
. "$TESTS/lib.sh"
cat > x.csv <<'CSV'
timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name
0,,0,0,100,16284,16384,
0,,0,4294967295,4294967295,,,max pid
1000000000,,0,0,4294967295,4294967295,4294967295,
2000000000,,0,0,100,20000,16384,
2000000000,,4294967295,0,1,1,2,
3000000000,,0,4294967295,0,,,max pid
18446744073709551615,,0,0,100,16284,16384,
18446744073709551615,,0,7,5000,,,last
CSV
cat > over.csv <<'CSV'
timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name
18446744073709551616,,0,0,1,1,1,
-1,,0,0,1,1,1,
1,,4294967296,0,1,1,1,
1,,0,4294967296,1,1,1,
1,,0,0,4294967296,1,1,
1,,0,0,1,4294967296,1,
1,,0,0,1,1,4294967296,
1,,0,0,,,,
CSV
echo "== read"
gpumem-read x.csv over.csv
echo "== tasks"
gpumem-tasks x.csv
gpumem-tasks -q -t json x.csv
echo "== usage"
gpumem-usage x.csv
gpumem-usage -q --every 1h x.csv
echo "== check"
rc=0; gpumem-check --json - x.csv || rc=$?
echo "exit $rc"
echo "== gantt"
gpumem-gantt --text --utc --width 60 x.csv
echo "== report"
gpumem-report -o r.html x.csv || echo "exit $?"
grep -c '<svg' r.html
echo "== plot"
gpumem-plot --script x.csv > p.gp || echo "exit $?"
grep -c '^\$' p.gp
exit 0
