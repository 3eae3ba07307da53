# Tasks without a name (GMEM captures carry none) are called "pid N" in
# check's lines, its Markdown and the names of its JUnit tests, never "".
. "$TESTS/lib.sh"
gpumem synth -s leak --gmem > rec.csv
rc=0; gpumem check --junit j.xml --markdown m.md rec.csv 2> err.txt || rc=$?
expect_eq "exit" $rc 1
cat err.txt
grep -o 'name="[^"]*pid[^"]*"' j.xml
grep 'pid 4242' m.md
