# Every binary: --help on stdout with exit 0, --version, exit 2 and a hint
# for a bad option, and a man page that documents every long option of
# --help and the common EXIT STATUS.
. "$TESTS/lib.sh"
top=$TESTS/..
n=0
for b in "$GPUMEM_BIN"/gpumem "$GPUMEM_BIN"/gpumem-*; do
	name=$(basename "$b")
	verb=${name#gpumem-}
	"$b" --help > help.txt 2> help.err || die "$name --help: exit $?"
	! [ -s help.err ] || die "$name --help wrote to stderr"
	head -n 1 help.txt | grep -q "^usage: $name " || die "$name --help: no synopsis: $(head -n 1 help.txt)"
	grep -q 'Exit status: 0 success' help.txt || die "$name --help: no exit status"
	expect_eq "$name --version" "$("$b" --version)" "$name (gpumem) 0.1.0"
	rc=0; "$b" --no-such-option > out.txt 2> err.txt || rc=$?
	expect_eq "$name with a bad option: exit" $rc 2
	! [ -s out.txt ] || die "$name: bad option wrote to stdout"
	grep -q "^Try '$name --help' for more information.$" err.txt || die "$name: no hint: $(cat err.txt)"
	if [ "$name" = gpumem ]; then
		man=$top/gpumem.1
	else
		man=$(ls "$top"/formats/"$verb".1 "$top"/analyze/"$verb".1 "$top"/reports/"$verb".1 2>/dev/null | head -n 1)
	fi
	[ -f "$man" ] || die "$name: no man page"
	grep -q '^\.Sh EXIT STATUS$' "$man" || die "$man: no EXIT STATUS"
	grep -q '^trouble' "$man" || die "$man: EXIT STATUS does not explain 2"
	for opt in $(grep -o -- '--[a-z][a-z-]*' help.txt | sort -u); do
		o=${opt#--}
		[ "$o" = no-such-option ] && continue
		grep -q -- "Fl -$o\b" "$man" || die "$man: --$o of --help is not documented"
	done
	n=$((n + 1))
done
[ $n -ge 3 ] || die "only $n binaries"
