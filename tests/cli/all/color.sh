# Colour on a terminal: FAIL / TROUBLE in red and PASS in green in check's
# verdict, leaked tasks in red and releases of 5 s or more in yellow in
# tasks -t text.  --color=always colours anywhere (the golden, through
# cat -v); auto colours a terminal (script(1) gives one) unless NO_COLOR
# is set; never a pipe or a file with auto; --color=never never.
. "$TESTS/lib.sh"
gpumem-synth -s demo > demo.csv
gpumem-synth -s clean > clean.csv
gpumem-tasks -q -t text --color=always demo.csv | cat -v
gpumem-check --color=always demo.csv 2>&1 | tail -n 1 | cat -v || :
gpumem-check --color=always clean.csv 2>&1 | tail -n 1 | cat -v
# auto, into a pipe and a file: plain.
gpumem-tasks -q -t text demo.csv | cat > pipe.txt
gpumem-tasks -q -t text -o file.txt demo.csv
rc=0; gpumem-check demo.csv 2> err.txt || rc=$?
esc=$(printf '\033')
for f in pipe.txt file.txt err.txt; do
	! grep -q "$esc" $f || die "auto: an escape in $f"
done
# --color=always, -o FILE: a file never gets colour.
gpumem-tasks -q -t text --color=always -o file.txt demo.csv
! grep -q "$esc" file.txt || die "always: an escape in -o FILE"
if command -v script > /dev/null; then
	script -qec "gpumem-check demo.csv" /dev/null > tty.txt < /dev/null || :
	grep -q "${esc}\[1;31mFAIL${esc}\[0m" tty.txt || die "auto: no colour"
	script -qec "gpumem-tasks -q -t text demo.csv" /dev/null > tty.txt \
	    < /dev/null
	grep -q "${esc}\[1;31mleaked" tty.txt || die "auto: tasks: no colour"
	NO_COLOR=1 script -qec "gpumem-check demo.csv" /dev/null > tty.txt \
	    < /dev/null || :
	! grep -q "$esc" tty.txt || die "NO_COLOR: colour"
	script -qec "gpumem-check --color=never demo.csv" /dev/null > tty.txt \
	    < /dev/null || :
	! grep -q "$esc" tty.txt || die "--color=never: colour"
fi
rc=0; gpumem-check --color=sometimes demo.csv 2> err.txt || rc=$?
expect_eq "--color=sometimes" $rc 2
head -n 1 err.txt
