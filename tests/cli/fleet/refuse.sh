# What a reduce cannot make exact is refused, saying why: usage curves of
# different --every (or single samples beside buckets), a curve of buckets
# for check (its gate needs the first and last sample), task tables beside
# raw logs.  Nothing is written.
. "$TESTS/lib.sh"
for n in 1 2; do
	gpumem-synth -s demo --host node$n -o node$n.rec
	gpumem-tasks -q -o node$n.csv node$n.rec
done
gpumem-usage -q --every 10s -o u10.csv node1.rec
gpumem-usage -q --every 1m -o u60.csv node2.rec
gpumem-usage -q -o u1.csv node2.rec
expect_exit 2 gpumem-report -q -o r.html node1.csv node2.csv u10.csv u60.csv
expect_exit 2 gpumem-report -q -o r.html node1.csv node2.csv u10.csv u1.csv
[ ! -e r.html ] || die "report written"
expect_exit 2 gpumem-check node1.csv u10.csv
expect_exit 2 gpumem-tasks -o t.csv node1.csv node2.rec
[ ! -e t.csv ] || die "table written"
expect_exit 2 gpumem-gantt --text node1.csv node2.rec
exit 0
