# A timestamp of the right form that names no date gpumem can keep (month
# 13, February 30, hour 25, before 1970, after 2500) is "date out of
# range", not a format error; a malformed one is still a format error.
. "$TESTS/lib.sh"
{
	echo 'timestamp, index, memory.used [MiB], memory.free [MiB]'
	for ts in '2026/01/01 00:00:01.000' '2026/13/01 00:00:02.000' \
	    '2026/02/30 00:00:03.000' '2026/01/01 25:00:04.000' \
	    '1969/12/31 23:59:59.000' '2600/01/01 00:00:06.000' \
	    '2026-02-30T00:00:07Z' '2026/01/01 00:0x:08.000' \
	    '2026/01/01 00:00:09.000'; do
		echo "$ts, 0, 100 MiB, 900 MiB"
	done
} > q.csv
gpumem-read q.csv | tail -n +2
# The same for a time given by the user.
rc=0; gpumem-read --since '2026-02-30T00:00:00Z' q.csv > /dev/null || rc=$?
echo "--since: exit $rc"
