# -o naming what is not a regular file is written in place, never
# renamed over: a descriptor path (/dev/fd/1, a link to it, as
# /dev/stdout is one) into a file, a pipe, or after what the shell wrote
# there first (appended, as ">>" asks), a fifo, a device (/dev/full: exit
# 2).  A link to a regular file stays a link; its file is replaced whole
# (a run cut by a file size limit leaves it as it was).  The system's
# /dev/stdout is never named here: a broken build would replace it.
. "$TESTS/lib.sh"
gpumem-synth -s leak -o leak.csv
gpumem-read -q leak.csv > want.out
[ "$(wc -l < want.out)" -gt 10 ] || die "want.out: $(wc -l < want.out) lines"
gpumem-read -q -o /dev/fd/1 leak.csv > got.out
cmp want.out got.out || die "-o /dev/fd/1 > file: not what stdout gets"
gpumem-read -q -o /dev/fd/1 leak.csv | cat > got.out
cmp want.out got.out || die "-o /dev/fd/1 | cat: not what stdout gets"
ln -s /dev/fd/1 fd1
gpumem-read -q -o fd1 leak.csv > got.out
cmp want.out got.out || die "-o LINK-TO-/dev/fd/1 > file: not what stdout gets"
[ -L fd1 ] && [ "$(readlink fd1)" = /dev/fd/1 ] || die "fd1: replaced: $(ls -l fd1)"
# What was written before stays: the shell's file is not truncated.
{ echo first; gpumem-read -q -o fd1 leak.csv; } > got.out
{ echo first; cat want.out; } > want2.out
cmp want2.out got.out || die "{ echo; -o fd1; } > file: $(head -2 got.out)"
echo old > log
gpumem-read -q -o /dev/fd/1 leak.csv >> log
{ echo old; cat want.out; } > want3.out
cmp want3.out log || die "-o /dev/fd/1 >> log: $(head -2 log)"
# A fifo: written in place, read by cat.
mkfifo ff
cat ff > got.out &
bg_add $!
gpumem-read -q -o ff leak.csv
wait $!
cmp want.out got.out || die "-o FIFO: not what stdout gets"
[ -p ff ] || die "ff: no longer a fifo"
# A device, through a link: its write error, the link kept.
ln -s /dev/full full
rc=0; gpumem-read -q -o full leak.csv 2> err.txt || rc=$?
expect_eq "-o LINK-TO-/dev/full: exit" $rc 2
grep -q '^gpumem-read: full: write error: No space left on device$' err.txt ||
	die "-o LINK-TO-/dev/full: $(cat err.txt)"
[ -L full ] || die "full: replaced"
# A link to a regular file: the link stays, its file gets the output.
mkdir d
echo keep > d/real
ln -s d/real lnk
gpumem-read -q -o lnk leak.csv
[ -L lnk ] || die "lnk: replaced by a file"
cmp want.out d/real || die "-o LINK: its file does not hold the output"
echo keep > d/real
rc=0; (trap '' XFSZ; ulimit -f 1; gpumem-read -q -o lnk leak.csv 2> err.txt) || rc=$?
expect_eq "-o LINK with a file size limit: exit" $rc 2
expect_eq "-o LINK with a file size limit: d/real" "$(cat d/real)" keep
! ls -a . d | grep -q '\.tmp' || die "a temporary file was left: $(ls -a . d)"
exit 0
