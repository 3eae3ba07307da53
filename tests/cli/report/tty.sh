# report without -o on a terminal (script(1) gives one) writes no HTML
# there: it says why and exits 2 before reading; into a pipe or with
# -o FILE the page, as before.
. "$TESTS/lib.sh"
command -v script > /dev/null || skip "script (util-linux) is absent"
gpumem-synth -s demo > demo.csv
rc=0
script -qec "gpumem-report demo.csv; echo exit \$?" /dev/null > tty.txt < /dev/null || rc=$?
expect_eq "script: exit" $rc 0
expect_eq "on a terminal" "$(tr -d '\r' < tty.txt)" "gpumem-report: standard output is a terminal: not writing an HTML page there (use -o FILE)
exit 2"
mkdir empty
PATH=$PWD/empty "$GPUMEM_BIN/gpumem-report" -q demo.csv | head -c 15 > pipe.txt
expect_eq "a pipe" "$(cat pipe.txt)" "<!DOCTYPE html>"
script -qec "PATH=$PWD/empty $GPUMEM_BIN/gpumem-report -q -o r.html demo.csv" /dev/null > tty.txt < /dev/null
expect_eq "-o FILE on a terminal" "$(head -c 15 r.html)" "<!DOCTYPE html>"
exit 0
