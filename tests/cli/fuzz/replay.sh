# Every fuzz target, built as a plain program (tests/fuzz/replay.c),
# replays its seeds and every find kept from fuzzing, in this build: a
# find that comes back is a crash or a sanitizer report here.  Every
# target has seeds, and every find is named in tests/fuzz/README.
. "$TESTS/lib.sh"
fuzz=$TOOLS/../fuzz
n=0
for src in "$TESTS"/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	name=${name#fuzz_}
	prog=$fuzz/fuzz_$name
	[ -x "$prog" ] || die "$prog was not built"
	[ -n "$(ls "$TESTS/fuzz/corpus/$name" 2>/dev/null)" ] ||
		die "fuzz_$name has no seeds in tests/fuzz/corpus/$name"
	set -- "$TESTS/fuzz/corpus/$name"
	[ -d "$TESTS/fuzz/finds/$name" ] && set -- "$@" "$TESTS/fuzz/finds/$name"
	"$prog" "$@" > out.txt 2> err.txt
	rc=$?
	if [ $rc -ne 0 ]; then
		tail -n 30 err.txt >&2
		die "fuzz_$name: exit $rc"
	fi
	grep -q "^fuzz_$name: [0-9]* inputs replayed$" out.txt ||
		die "fuzz_$name: $(cat out.txt)"
	n=$((n + 1))
done
[ $n -ge 20 ] || die "only $n fuzz targets"
for f in "$TESTS"/fuzz/finds/*/*; do
	[ -f "$f" ] || continue
	grep -q "$(basename "$(dirname "$f")")/$(basename "$f")" "$TESTS/fuzz/README" ||
		die "$f is not named in tests/fuzz/README"
done
exit 0
