# The recorded command goes into meta on one line, whatever its
# arguments hold: a line break, a space or a quote is escaped (a JSON
# string), so an argument cannot add a line of its own ("end: ...") that
# gpumem check would then read; check reads the recording (exit 0 or 1:
# the stand-in's tasks, never 2) without a word about meta.
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
gpumem-record --before 0 --after 1s -o run -- sh -c 'exit 0' \
    'x
end: junk' 'a "b"' plain-word_1.0 2> /dev/null
sed -n 2p run/meta
expect_eq "meta: lines" "$(wc -l < run/meta)" 9
expect_eq "meta: end lines" "$(grep -c '^end' run/meta)" 2
rc=0; gpumem-check -q run > /dev/null 2> err.txt || rc=$?
[ $rc -le 1 ] || die "check: exit $rc: $(cat err.txt)"
! grep -q meta: err.txt || die "check: $(grep meta: err.txt)"
