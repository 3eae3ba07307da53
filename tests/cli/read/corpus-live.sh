# The logs (and captures) of tests/corpus read live through a FIFO,
# as from a loop: the same records, messages and exit status as read from
# the file.
# Real logs are in time order enough that live reading (a record final as
# soon as a later one has come, no reorder window) loses nothing.
. "$TESTS/lib.sh"
need_corpus real
need_corpus pcaps
mkfifo in.fifo
n=0
# The logs, and one capture in twenty (none carries GMEM: what matters
# is that live reading changes nothing of what is said about them).
files=$({
	find "$CORPUS/real" -type f ! -name "*.md"
	find "$CORPUS/pcaps" -type f ! -name "*.md" | sort | awk 'NR % 20 == 1'
} | sort)
for f in $files; do
	frc=0; gpumem-read "$f" > file.csv 2> file.err || frc=$?
	cat "$f" > in.fifo &
	lrc=0; gpumem-read --live in.fifo > live.csv 2> live.err || lrc=$?
	wait
	name=$(basename "$f")
	expect_eq "$name: exit status" $lrc $frc
	cmp -s file.csv live.csv || die "$name: $(diff file.csv live.csv | head -5)"
	# The messages name the input: the FIFO, not the file.  Their order
	# may differ: a note of the merge ("GPUs numbered in PCI bus order")
	# comes with the first record to leave, which live reading lets go
	# before a later line is found bad.
	sed "s|$f|in.fifo|g" file.err | sort > file.sorted
	sort live.err | cmp -s - file.sorted ||
		die "$name: $(sort live.err | diff file.sorted - | head -5)"
	n=$(($n + 1))
done
[ $n -ge 45 ] || die "only $n files"
