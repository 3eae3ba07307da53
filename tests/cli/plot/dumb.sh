# Text charts: --terminal dumb draws in characters, sized by --size; the
# marks are written on it.
. "$TESTS/lib.sh"
gpumem-synth -s leak | gpumem-plot -T dumb --size 110x30 > chart.txt || die "exit $?"
expect_eq "lines" "$(wc -l < chart.txt | tr -d ' ')" 30
grep -q 'GPU 0: 16.0 GiB total, 2 tasks, 1 leaked' chart.txt || die "no panel title"
grep -q '4242 python3 launch.py --listen' chart.txt || die "the leak is not written"
grep -q '11.0 GiB never came back' chart.txt || die "the leaked memory is not written"
grep -q '4300 python3: 0 s' chart.txt || die "the release is not written"
# The key: each entry its own character (text has no colour), "held
# after the end" and "leaked" too, and blanks between the entries.
key=$(grep -E '(attributed|usage|total|end|leaked) [*#$%@&=]{2}' chart.txt)
entries=$(printf '%s\n' "$key" | grep -oE '[a-z][a-z ]*[a-z] [*#$%@&=]+' | sort)
expect_eq "key" "$(printf '%s\n' "$entries" | sed 's/ [^ ]*$//' | tr '\n' ',')" "attributed,held after the end,leaked,total,unattributed,usage,"
expect_eq "glyphs" "$(printf '%s\n' "$entries" | awk '{ print substr($NF, 1, 1) }' | sort -u | wc -l | tr -d ' ')" 6
printf '%s\n' "$key" | grep -qE '[*#$%@&=][a-z]' && die "key entries run together: $key"
exit 0
