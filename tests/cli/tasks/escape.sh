# A process name holding what CSV, JSON and Markdown must escape comes out
# of every table as it went in: " \ | < > & ' * _ # and a tab.
. "$TESTS/lib.sh"
name=$(printf 'a"b\\c|d<e>&'"'"'f*_#\tg')
name_stream "$name" > e.csv
# CSV: the name field, quoted with its quotes doubled (RFC 4180).
gpumem-tasks -q e.csv > t.csv
expect_eq "csv" "$(sed -n 2p t.csv | cut -d, -f4)" \
    "$(printf '"a""b\\c|d<e>&'"'"'f*_#\tg"')"
# Markdown: every row has as many cells as the header, the name one.
gpumem-tasks -q -t md e.csv > t.md
cells() {
	sed 's/\\|//g' | awk -F '|' '{ print NF }'
}
expect_eq "md cells" "$(sed -n 3p t.md | cells)" "$(sed -n 1p t.md | cells)"
expect_eq "md name" "$(sed -n 3p t.md | sed 's/\\|/\n/g' | head -n 1 |
    awk -F '|' '{ print $4 }')" ' a"b\\c'
# JSON: no raw control character (RFC 8259 wants them escaped); valid,
# and the name decoded is the name (jq reads it).
gpumem-tasks -q -t json e.csv > t.json
! tr -d '\n' < t.json | grep -q '[[:cntrl:]]' ||
	die "a raw control character in the JSON"
# Every other control character, DEL too, as a \u escape (exactly).
name_stream "$(printf 'x\001y\033z\177w')" > c.csv
gpumem-tasks -q -t json c.csv > c.json
grep -q '"name": "x\\u0001y\\u001bz\\u007fw"' c.json ||
	die "control characters not \\u escapes: $(grep name c.json)"
command -v jq > /dev/null 2>&1 || skip "jq is absent"
expect_eq "json name" "$(jq -r '.tasks[0].name' t.json)" "$name"
expect_eq "json status" "$(jq -r '.tasks[0].status' t.json)" released
