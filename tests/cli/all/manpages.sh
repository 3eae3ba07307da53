# Man pages: mandoc finds nothing at warning level (sections in order,
# macros right), and each names the package and the version the program
# prints (.Os), so `man` shows "gpumem 0.1.0", not "BSD".
. "$TESTS/lib.sh"
top=$TESTS/..
command -v mandoc > /dev/null || skip "mandoc is absent"
version=$("$GPUMEM_BIN"/gpumem --version | sed 's/.* //')
n=0
for man in "$top"/gpumem.1 "$top"/formats/*.1 "$top"/analyze/*.1 \
    "$top"/reports/*.1; do
	name=${man#"$top"/}
	# mandoc's own database may be stale on the machine: not our page.
	mandoc -T lint -W warning "$man" 2>&1 | grep -v 'mandoc.db' > lint.txt || :
	[ ! -s lint.txt ] || die "$name: $(cat lint.txt)"
	expect_eq "$name: .Os" "$(grep '^\.Os' "$man")" ".Os gpumem $version"
	# groff (what man and lintian use) can break every line at 80 columns.
	if command -v man > /dev/null && command -v groff > /dev/null; then
		MANWIDTH=80 man --warnings -E UTF-8 -l "$man" 2> warn.txt > /dev/null || :
		[ ! -s warn.txt ] || die "$name: groff: $(cat warn.txt)"
	fi
	mandoc -T utf8 "$man" | tail -n 1 > foot.txt
	grep -q "gpumem $version" foot.txt || die "$name: footer $(cat foot.txt)"
	n=$((n + 1))
done
expect_eq "man pages" $n $(ls "$GPUMEM_BIN" | grep -c '^gpumem')
