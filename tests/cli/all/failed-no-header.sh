# A run that could read nothing and failed writes nothing, not even a CSV
# header, to standard output or to -o; an input that is merely empty is
# a header alone.  read, tasks and usage.
. "$TESTS/lib.sh"
for t in read tasks usage; do
	rc=0; gpumem "$t" nonexist.csv > out.txt 2> err.txt || rc=$?
	expect_eq "$t nonexist: exit" $rc 2
	[ ! -s out.txt ] || die "$t nonexist wrote: $(cat out.txt)"
	rc=0; gpumem "$t" -o o.csv nonexist.csv 2> err.txt || rc=$?
	expect_eq "$t -o nonexist: exit" $rc 2
	[ ! -e o.csv ] || die "$t -o nonexist made o.csv: $(cat o.csv)"
	: > empty.csv
	gpumem "$t" -q empty.csv > out.txt
	echo "$t, empty input: $(cat out.txt)"
done
