# A full disk is an error (exit 2), never a silent success; a closed pipe
# ends the tool quietly; -o replaces the file only when all went well.
. "$TESTS/lib.sh"
gpumem-synth -s demo > demo.csv
rc=0; gpumem-read -q demo.csv > /dev/full 2> full.err || rc=$?
expect_eq "exit status on /dev/full" $rc 2
expect_eq "message on /dev/full" "$(cat full.err)" "gpumem-read: standard output: write error: No space left on device"
gpumem-read -q demo.csv 2> pipe.err | head -n 1 > first.txt
expect_eq "first line through head" "$(cat first.txt)" "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
expect_eq "stderr with a closed pipe" "$(cat pipe.err)" ""
echo keep > out.csv
gpumem-read -q -o out.csv demo.csv
cmp out.csv demo.csv || die "-o output differs"
! ls -a | grep -q '\.tmp' || die "a temporary file was left: $(ls -a)"
rc=0; gpumem-read -q -o /dev/full demo.csv 2> devfull.err || rc=$?
expect_eq "exit status of -o /dev/full" $rc 2
mkdir ro && chmod 555 ro
if [ "$(id -u)" != 0 ]; then
	rc=0; gpumem-read -q -o ro/out.csv demo.csv 2> ro.err || rc=$?
	expect_eq "exit status of -o into a read-only directory" $rc 2
fi
exit 0
