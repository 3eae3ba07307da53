# A marker that finds no room on the chart is said, not lost: 150
# processes (written by awk as a user's record stream) each leak 512 MiB
# of an 80 GiB GPU, all ending at the same second, so their 150 markers
# (--marks 1000) want the same place; 6 rows of at most 17 markers
# around one line hold 123 of them.  The list on standard error says of
# each of the other 27 "(not drawn: no room)" and a line says "27 of
# 150"; the SVG gnuplot draws holds exactly the boxes (fill #ebebea) and
# numbers of the list's other entries.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null 2>&1 || skip "gnuplot is absent"
awk 'BEGIN {
	t0 = 1767225600; total = 81920; n = 150
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (s = 0; s < 60; s++) {
		used = s >= 5 ? 300 + n * 512 : 300
		printf "%d000000000,,0,0,%d,%d,%d,\n", t0 + s, used, total - used, total
		for (p = 1; p <= n; p++)
			if (s >= 5 && s < 30)
				printf "%d000000000,,0,%d,512,,,\"job%d.py\"\n", t0 + s, 1000 + p, p
			else if (s == 30)
				printf "%d000000000,,0,%d,0,,,\"job%d.py\"\n", t0 + s, 1000 + p, p
	}
}' > same.csv
gpumem-plot -T svg --marks 1000 -o same.svg same.csv 2> list.txt || die "plot: exit $?"
expect_eq "marks listed" "$(grep -c ': mark [0-9]* at 00:00:30: gpu0 1[0-9]* job[0-9]*\.py: 512 MiB never came back' list.txt)" 150
expect_eq "marks without room" "$(grep -c ': mark [0-9]* at .* never came back (not drawn: no room)$' list.txt)" 27
expect_eq "the count" "$(grep -c '^gpumem-plot: GPU 0: 27 of 150 marks had no room on the chart$' list.txt)" 1
# The numbers drawn are those listed without the note, each once.
sed -n 's/^gpumem-plot: mark \([0-9]*\) at .*came back$/\1/p' list.txt | sort -n > want
expect_eq "marks drawn, by the list" "$(wc -l < want)" 123
expect_eq "boxes drawn" "$(grep -c "<polygon fill = 'rgb(235, 235, 234)'" same.svg)" 123
tr '\n' ' ' < same.svg | grep -o 'fill="rgb(203, *24, *29)"[^>]*text-anchor="middle">[[:space:]]*<text>[0-9]*</text>' |
	sed 's/.*<text>\([0-9]*\)<.*/\1/' | sort -n > got
cmp want got || die "the numbers drawn are not the list's drawn marks"
# With fewer marks than room (--marks 100), none is left out.
gpumem-plot -T svg --marks 100 -o few.svg same.csv 2> few.txt || die "plot: exit $?"
expect_eq "no note" "$(grep -c 'no room' few.txt || true)" 0
expect_eq "boxes drawn, 100" "$(grep -c "<polygon fill = 'rgb(235, 235, 234)'" few.svg)" 100
