# --help and --version into a full disk: exit 2 with a message, for every
# binary, never a silent 0 (outfile_close_stdout on the way out of usage too).
. "$TESTS/lib.sh"
[ -w /dev/full ] || skip "/dev/full is absent"
n=0
for b in "$GPUMEM_BIN"/gpumem "$GPUMEM_BIN"/gpumem-*; do
	name=$(basename "$b")
	for opt in --help --version; do
		rc=0
		"$b" $opt > /dev/full 2> err.txt || rc=$?
		expect_eq "$name $opt > /dev/full: exit" $rc 2
		grep -q "^$name: standard output: write error: No space left" \
		    err.txt ||
			die "$name $opt > /dev/full: $(cat err.txt)"
	done
	n=$((n + 1))
done
[ $n -ge 3 ] || die "only $n binaries"
