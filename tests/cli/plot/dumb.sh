# Text charts: --terminal dumb draws in characters, sized by --size; the
# marks are numbered on it (each number ending at its task's end line),
# what they say listed on standard error.
. "$TESTS/lib.sh"
gpumem-synth -s leak | gpumem-plot -T dumb --size 110x30 > chart.txt 2> list.txt || die "exit $?"
expect_eq "lines" "$(wc -l < chart.txt | tr -d ' ')" 30
grep -q 'GPU 0: 16.0 GiB total, 2 tasks, 1 leaked' chart.txt || die "no panel title"
grep -q ' 1 *|.* 2 *|' chart.txt || die "the markers are not drawn: $(cat chart.txt)"
expect_eq "the list" "$(cat list.txt)" "gpumem-plot: mark 1 at 00:01:00: gpu0 4242 python3 launch.py --listen: 11.0 GiB never came back
gpumem-plot: mark 2 at 00:01:20: gpu0 4300 python3: memory back 0 s after its end"
# The key: each entry its own character (text has no colour), "held
# after the end" and "leaked" too, and blanks between the entries.
key=$(grep -E '(attributed|usage|total|end|leaked) [*#$%@&=]{2}' chart.txt)
entries=$(printf '%s\n' "$key" | grep -oE '[a-z][a-z ]*[a-z] [*#$%@&=]+' | sort)
expect_eq "key" "$(printf '%s\n' "$entries" | sed 's/ [^ ]*$//' | tr '\n' ',')" "attributed,held after the end,leaked,total,unattributed,usage,"
expect_eq "glyphs" "$(printf '%s\n' "$entries" | awk '{ print substr($NF, 1, 1) }' | sort -u | wc -l | tr -d ' ')" 6
printf '%s\n' "$key" | grep -qE '[*#$%@&=][a-z]' && die "key entries run together: $key"
# Two panels (two GPUs, 10 tasks each): the row under each plot's top
# border, where the markers' numbers lie, holds no mirrored time tic
# ('+') that a number could run into (the y axis's are at its ends).
gpumem-synth -s random --seed 3 --gpus 2 --interval 10s --duration 3000s -o two.csv
gpumem-plot -T dumb --size 100x50 two.csv > two.txt 2> /dev/null || die "exit $?"
expect_eq "panels" "$(grep -c '^ *[0-9]* *+--*+ *$' two.txt)" 4
awk '/^ *[0-9]* *\+--*\+ *$/ { top = !top; if (top) { getline; print } }' two.txt > rows.txt
expect_eq "marker rows" "$(grep -c '|.*[0-9].*|' rows.txt)" 2
# (the y axis's tics, '-+' and '+-' at the borders, aside)
sed 's/^[^|]*|-+//; s/+-|[[:space:]]*$//' rows.txt | grep '+' && die "a time tic on the markers' row: $(cat two.txt)"
exit 0
