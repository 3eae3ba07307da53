# tasks -t openmetrics: gauges in the Prometheus text format that
# promtool accepts, with the truth's numbers: what each task held, leaked
# and how long its release took; per GPU, the tasks by status and the
# memory leaked.  Names with quotes, backslashes and control characters
# stay inside their label.
. "$TESTS/lib.sh"
gpumem synth -s multi-gpu -t truth.csv | gpumem tasks -q -t openmetrics > om.txt
cat om.txt
if command -v promtool > /dev/null; then
	promtool check metrics < om.txt || die "promtool: om.txt"
fi
# The truth, in the metrics' units (bytes, seconds), from synth's table.
awk -F , 'NR > 1 && $12 == "leaked" { printf "%s %.0f\n", $3, $11 * 1048576 }' truth.csv |
    sort > want-leaked.txt
sed -n 's/^gpumem_task_leaked_bytes{.*pid="\([0-9]*\)".*status="leaked"} \(.*\)/\1 \2/p' \
    om.txt | sort > got-leaked.txt
cmp -s want-leaked.txt got-leaked.txt ||
    die "leaked: $(diff want-leaked.txt got-leaked.txt)"
awk -F , 'NR > 1 && $12 == "released" { print $3, $10 + 0 }' truth.csv |
    sort > want-delay.txt
sed -n 's/^gpumem_task_release_delay_seconds{.*pid="\([0-9]*\)".*} \(.*\)/\1 \2/p' \
    om.txt | sort > got-delay.txt
cmp -s want-delay.txt got-delay.txt ||
    die "delays: $(diff want-delay.txt got-delay.txt)"
# A hostile name: quotes, a backslash, ESC, a tab.
esc=$(printf '\033')
tab=$(printf '\t')
{
	echo 'timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name'
	echo "1000000000,\"n\"\"1\",0,0,0,16000,16384,"
	echo "2000000000,\"n\"\"1\",0,7,1024,,,\"x\"\"y\\\\z${esc}]0;t${tab}w\""
	echo "3000000000,\"n\"\"1\",0,0,1024,14976,16384,"
	echo "4000000000,\"n\"\"1\",0,7,0,,,\"x\"\"y\\\\z${esc}]0;t${tab}w\""
	echo "5000000000,\"n\"\"1\",0,0,1024,14976,16384,"
	echo "6000000000,\"n\"\"1\",0,0,1024,14976,16384,"
} > hostile.csv
gpumem tasks -q -t openmetrics hostile.csv > hostile.txt
grep '^gpumem_task_held_bytes' hostile.txt
if command -v promtool > /dev/null; then
	promtool check metrics < hostile.txt || die "promtool: hostile.txt"
fi
