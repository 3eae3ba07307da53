# Two loops, the truth: true start, exit and release of each task as the
# scenario defines them (ms after 2026-01-01T00:00:00Z: 1767225600 s),
# what the polls listed, the delay with its ms, and a leak with the
# context it keeps (context: 6000 + 350).  pid-reuse-fast: one pid, two
# tasks.  A task no poll listed is not in it; one still running at the
# end ends at its last poll.
. "$TESTS/lib.sh"
for s in pid-reuse-fast context dip overlap lost-polls; do
	echo "== $s"
	gpumem-synth -s $s --truth truth.csv > /dev/null
	cat truth.csv
done
echo "== overlap, 30.5 s: 9402 still waits, 9403 still runs"
gpumem-synth -s overlap --duration 30.5s --truth truth.csv > /dev/null
cat truth.csv
echo "== overlap, every line lost: no task"
gpumem-synth -s overlap --lose-lines 100 --truth truth.csv > /dev/null
cat truth.csv
