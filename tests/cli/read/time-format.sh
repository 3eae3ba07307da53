# A home-made logger's own timestamps (DD-MM-YYYY, a zone of its own):
# --time-format reads them with strptime(3); without it the refusal says
# so.  The truth is date(1)'s.
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "timestamp, index, memory.used [MiB], memory.free [MiB]"
	for (i = 0; i < 3; i++)
		printf "26-02-2025 13:50:%02d.250, 0, %d MiB, %d MiB\n", 18 + i, 300 + i, 16084 - i
}' > dmy.csv
want=$(date -d '2025-02-26 13:50:18.250' +%s%N)
gpumem-read --time-format '%d-%m-%Y %H:%M:%S' dmy.csv > got
expect_eq "first time" "$(sed -n 2p got | cut -d, -f1)" "$want"
expect_eq "last time" "$(sed -n 4p got | cut -d, -f1)" "$((want + 2000000000))"
expect_eq "records" "$(nrec got)" 3
# With its zone: %z.
sed 's/\(:[0-9][0-9]\.250\),/\1 +0100,/' dmy.csv > dmyz.csv
gpumem-read -q --time-format '%d-%m-%Y %H:%M:%S %z' dmyz.csv > got
expect_eq "zoned first time" "$(sed -n 2p got | cut -d, -f1)" "$((want - 3600000000000))"
# Without the option: the hint; with a wrong one: what was expected.
rc=0; gpumem-read dmy.csv > /dev/null || rc=$?
expect_eq "exit without --time-format" $rc 2
rc=0; gpumem-read --time-format '%Y-%m-%d %H:%M:%S' dmy.csv > /dev/null || rc=$?
expect_eq "exit with a wrong --time-format" $rc 2
rc=0; gpumem-read --time-format 'dd-mm-yyyy' dmy.csv > /dev/null 2>&1 || rc=$?
expect_eq "exit with no strptime format" $rc 2
