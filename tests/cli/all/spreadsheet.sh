# CSV formula injection: a process name is whatever the process called
# itself, and a spreadsheet that opens a CSV takes a cell starting with
# = + - @ (or a tab, or a carriage return) as a formula (=HYPERLINK(...),
# =cmd|' /C calc'!A0).  --spreadsheet, on every command that writes CSV
# of names and hosts (read, tasks, usage), puts a ' before such a cell
# (OWASP's rule), once, in the one CSV writer; without it the names are
# written as they are (gpumem reads its CSV back).  Seven processes, each
# named after one of the characters and one (a=b) that stays as it is;
# the lines are shown by sed's l (\t, \r, $ at the end).
. "$TESTS/lib.sh"
recording '
	n[0] = "\"=cmd|'"'"' /C calc'"'"'!A0\""
	n[1] = "+SUM(A1)"; n[2] = "-2+3"; n[3] = "@x"
	n[4] = "\"\ttab\""; n[5] = "\"\rcr\""; n[6] = "a=b"
	for (s = 0; s < 40; s++) {
		k = int(s / 5)
		busy = k < 7 && s % 5 >= 1 && s % 5 <= 3
		dev(s, busy ? 100 : 0)
		if (busy)
			proc(s, 100 + k, 100, n[k])
	}' > names.csv
echo "read --spreadsheet, the names:"
gpumem-read -q --spreadsheet names.csv | awk -F, 'NR > 1 && $4 != 0' |
    sort -t, -k4,4n -u | sed 's/^[0-9]*,,0,//' | sed -n l
echo "tasks --spreadsheet:"
gpumem-tasks --spreadsheet names.csv | cut -d, -f1-4 | sed -n l
echo "usage --spreadsheet, a host named @evil:"
sed '2,$s/^\([0-9]*\),,/\1,@evil,/' names.csv > host.csv
gpumem-usage --spreadsheet host.csv | sed -n '2p' | sed -n l
echo "tasks, as they are:"
gpumem-tasks names.csv | cut -d, -f4 | sed -n l
