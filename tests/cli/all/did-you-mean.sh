# A mistyped verb: exit 2, and the nearest verbs named (one edit or a swap
# of two letters away, as git does); nothing named when none is near.
. "$TESTS/lib.sh"
for v in taks raed chek gnatt plto xyz; do
	rc=0; gpumem "$v" > out.txt 2>&1 || rc=$?
	echo "$v: exit $rc"
	cat out.txt
done
