# Time-less query-gpu logs as `nvidia-smi --query-gpu=memory.used,
# memory.total --format=csv -l 5` writes them: one header, then a row a
# poll.  Without a GPU column each row is a poll of one GPU (not 404 GPUs
# of one instant); with an index column a poll is a group of rows of
# distinct indices.  Time advances by --interval per poll from --start,
# and a line that cannot be read (a value chopped: "4a MiB") takes no
# poll's time: the rows after it keep theirs.
. "$TESTS/lib.sh"
# one.log: 404 polls of one GPU, a junk row after polls 100 and 200;
# two.log: 50 polls of GPUs 0 and 1, a junk row after polls 10 and 20
# (its GPU 0 or 1, its value chopped).  want-*: the records, poll p at
# 1767225600 + 5 p s, GPU g using 10 p + g + 1 MiB.
awk 'BEGIN {
	print "memory.used [MiB], memory.total [MiB]" > "one.log"
	for (p = 0; p < 404; p++) {
		printf "%d MiB, 24576 MiB\n", 10 * p + 1 > "one.log"
		if (p == 100 || p == 200)
			print "4a MiB, 24576 MiB" > "one.log"
		printf "%d000000000,,0,0,%d,,24576,\n", 1767225600 + 5 * p, 10 * p + 1 > "want-one"
	}
	print "index, memory.used [MiB], memory.total [MiB]" > "two.log"
	for (p = 0; p < 50; p++) {
		for (g = 0; g < 2; g++) {
			printf "%d, %d MiB, 24576 MiB\n", g, 10 * p + g + 1 > "two.log"
			printf "%d000000000,,%d,0,%d,,24576,\n", 1767225600 + 5 * p, g, 10 * p + g + 1 > "want-two"
		}
		if (p == 10 || p == 20)
			printf "%d, 4a MiB, 24576 MiB\n", p == 20 > "two.log"
	}
}'
for f in one two; do
	rc=0; gpumem-read --interval 5s --start 2026-01-01T00:00:00Z $f.log > got || rc=$?
	expect_eq "$f.log: exit" $rc 0
	tail -n +2 got > got-rows
	cmp -s got-rows want-$f || die "$f.log: records differ: $(diff want-$f got-rows | head -n 5)"
done
# Without --interval the rows have no time: said, with the way out.
rc=0; gpumem-read one.log > /dev/null || rc=$?
expect_eq "one.log without --interval: exit" $rc 2
