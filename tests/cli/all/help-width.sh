# Every line of every binary's --help, and of the usage a bad option
# prints, fits a terminal of 80 columns (UTF-8 characters counted, not
# bytes): the help's writer wraps what a table's text leaves too long.
# (getopt's own line, which names the binary by its path, is not ours.)
. "$TESTS/lib.sh"
n=0
for b in "$GPUMEM_BIN"/gpumem "$GPUMEM_BIN"/gpumem-*; do
	name=$(basename "$b")
	"$b" --help > help.txt 2>&1 || die "$name --help: exit $?"
	"$b" --no-such-option > usage.txt 2>&1 || :
	for f in help.txt usage.txt; do
		awk -v w="$name ($f)" '/unrecognized option/ { next } { s = $0; gsub(/[\200-\277]/, "", s)
		    if (length(s) > 80) { print w ": " length(s) " columns: " $0; bad = 1 } }
		    END { exit bad }' "$f" || die "$name: a line over 80 columns"
	done
	n=$((n + 1))
done
[ $n -ge 12 ] || die "only $n binaries"
exit 0
