# tasks -t text fits the terminal (its width, or $COLUMNS) as gantt --text
# does: the full table of synth -s demo on a host with a long name is 190
# columns (it wrapped on a 130-column terminal).  Fitted: the times lose
# their date when every one has the same (said under the table, whose
# line is wrapped), then names and hosts are cut with an ellipsis, the
# wider first, to 12 and 8 columns at least.  Into a pipe or a file
# without $COLUMNS the table is whole.
. "$TESTS/lib.sh"
gpumem-synth -s demo --host node-with-a-rather-long-name-07.cluster.example.org \
    > demo.csv
widest() {
	python3 -c 'import sys
print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$1"
}
env -u COLUMNS gpumem-tasks -q -t text demo.csv > full.txt
echo "whole: $(widest full.txt) columns"
for c in 130 80; do
	COLUMNS=$c gpumem-tasks -q -t text demo.csv > t$c.txt
	echo "COLUMNS=$c: $(widest t$c.txt) columns"
	cat t$c.txt
done
# Not into -o FILE.
COLUMNS=80 gpumem-tasks -q -t text -o file.txt demo.csv
cmp -s file.txt full.txt || die "-o FILE was fitted"
