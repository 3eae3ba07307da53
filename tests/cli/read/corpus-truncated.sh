# Every real sample cut off in the middle of a line, halfway and near its
# end: read as far as it goes or refused, never a crash (the ASan+UBSan
# variant checks memory use too).
. "$TESTS/lib.sh"
need_corpus real
n=0
for f in "$CORPUS"/real/*/*; do
	case $f in *PROVENANCE.md) continue ;; esac
	size=$(wc -c < "$f")
	for cut in $((size / 2 + 7)) $((size - size / 10 - 3)); do
		head -c "$cut" "$f" > cut.in
		rc=0; gpumem-read -q --start 2024-01-01T00:00:00Z --interval 1s cut.in > /dev/null 2> err.txt || rc=$?
		[ $rc -eq 0 ] || [ $rc -eq 2 ] || die "$f cut at $cut: exit $rc: $(tail -n 5 err.txt)"
		n=$((n + 1))
	done
done
[ $n -ge 70 ] || die "only $n cuts"
