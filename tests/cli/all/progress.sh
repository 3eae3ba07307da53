# A progress line on a terminal: stderr a pty (script(1) gives one), the
# input arriving in two parts 0.6 s apart so that the run outlives the
# first quarter second: "\r" + "gpumem-read: N MiB, N records, N MiB/s,
# N of N inputs done" + erase, erased again before the summary, and the
# output the same as without a terminal; a message erases it likewise.
# None with -q, none when stderr is a file or a pipe.
. "$TESTS/lib.sh"
command -v script > /dev/null || skip "script (util-linux) is absent"
gpumem-synth -s ci-hour > big.csv
n=$(wc -l < big.csv)
head -n $((n / 2)) big.csv > a.csv
tail -n +$((n / 2 + 1)) big.csv > b.csv
slow() {	# CMD...: a pty; the input in two parts
	script -qec "sh -c '(cat a.csv; sleep 0.6; cat b.csv) | $*'" \
	    /dev/null > tty.txt < /dev/null
}
cr=$(printf '\r')
esc=$(printf '\033')
slow gpumem-read -o out.csv
grep -q "${cr}gpumem-read: [0-9.]* MiB, [0-9]* records, [0-9.]* MiB/s, 0 of 1 inputs done${esc}\[K" tty.txt ||
	die "no progress line: $(od -c tty.txt | head)"
grep -q "${esc}\[K${cr}${esc}\[Kgpumem-read: <stdin>: " tty.txt ||
	die "not erased before the summary: $(od -c tty.txt | head)"
# A message while the line is shown erases it first: the input in three
# parts, a line of two fields at the start of the third.
n3=$((n / 3))
head -n $n3 big.csv > p1.csv
sed -n "$((n3 + 1)),$((2 * n3))p" big.csv > p2.csv
{ echo "bad,line"; tail -n +$((2 * n3 + 1)) big.csv; } > p3.csv
script -qec "sh -c '(cat p1.csv; sleep 0.6; cat p2.csv; sleep 0.6; cat p3.csv) | gpumem-read -o /dev/null'" \
    /dev/null > tty.txt < /dev/null
grep -q "${esc}\[K${cr}${esc}\[Kgpumem-read: <stdin>:$((2 * n3 + 1)): too few fields" tty.txt ||
	die "a message not erasing the progress line: $(od -c tty.txt | head -n 12)"
gpumem-read -q -o ref.csv big.csv
cmp -s out.csv ref.csv || die "the output differs on a terminal"
for v in "tasks -o /dev/null" "usage -o /dev/null" check; do
	slow gpumem-$v || :
	grep -q "${cr}gpumem-${v%% *}: .* records, " tty.txt ||
		die "$v: no progress"
done
# -q: none.
slow gpumem-read -q -o out.csv
! grep -q "records, " tty.txt || die "-q: a progress line"
# stderr a file, or a pipe: none.
slow gpumem-read -o out.csv 2> err.txt
! grep -q "$cr" err.txt || die "a progress line into a file"
slow "gpumem-read -o out.csv 2>&1 | cat > piped.txt"
! grep -q "records, " piped.txt || die "a progress line into a pipe"
! grep -q "$esc" piped.txt || die "an escape into a pipe"
