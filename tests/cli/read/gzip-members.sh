# gzip files as cat and printf leave them: two members one after the
# other are one input; bytes after the last member are trailing garbage
# and a member whose deflate data is broken is corrupt, each named with
# the byte where it begins (exit 2), every record before it kept.
. "$TESTS/lib.sh"
gpumem-synth -s clean > a.csv
gpumem-synth -s clean --start 2026-01-01T01:00:00Z > b.csv
gzip -nc a.csv > a.gz
gzip -nc b.csv > b.gz
size=$(wc -c < a.gz)
cat a.gz b.gz > ab.gz
gpumem-read -q ab.gz > got.csv
{ cat a.csv; tail -n +2 b.csv; } | cmp - got.csv || die "two members differ"

{ cat a.gz; printf 'junk\n'; } > junk.gz
rc=0; gpumem-read junk.gz > got.csv 2> err || rc=$?
expect_eq "trailing garbage: exit" $rc 2
cmp a.csv got.csv || die "trailing garbage: records lost"
expect_eq "trailing garbage: message" "$(head -n 1 err)" \
    "gpumem-read: junk.gz: trailing garbage after gzip data at byte $size"

# A member of 11 bytes: gzip's header, then a final deflate block of the
# reserved type 3 (bits 1, 11).
{ cat a.gz; printf '\037\213\010\000\000\000\000\000\000\003\007'; } > bad.gz
rc=0; gpumem-read bad.gz > got.csv 2> err || rc=$?
expect_eq "corrupt: exit" $rc 2
cmp a.csv got.csv || die "corrupt: records lost"
expect_eq "corrupt: message" "$(head -n 1 err)" \
    "gpumem-read: bad.gz: corrupt gzip data near byte $((size + 11)): invalid block type"
