# Context memory is measured from the level before a task's start only
# when no other task came or went between that level's sample and the
# start.  The sample just before a start is often not judged yet when the
# start is read (it waits for the polls around it), so the level found is
# older: here a.py (1000 MiB, leaked) was still listed at it.  Taking
# that level, b.py's context came out as a.py's 1000 MiB: a.py was
# "released after 9 s" and b.py blamed for a 1000 MiB leak.
#
# The device samples at whole seconds, the process loop half a second
# later: a.py is listed at 10.5 and 11.5 with 1000 MiB and is gone at
# 12.5, its memory never back; b.py is listed from 13.5 to 20.5 with
# 2000 MiB and is gone at 21.5; its memory is out until the sample at 22
# and back at 23.
. "$TESTS/lib.sh"
hdr=timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name
awk -v hdr=$hdr 'BEGIN { print hdr
	for (i = 0; i < 40; i++) {
		t = sprintf("%d000000000", 1767225600 + i)
		used = 300 + (i >= 11 ? 1000 : 0) + (i >= 14 && i <= 22 ? 2000 : 0)
		print t ",,0,0," used "," 16384 - used ",16384,"
		t = sprintf("%d500000000", 1767225600 + i)
		if (i >= 10 && i <= 11) print t ",,0,4001,1000,,,a.py"
		if (i == 12) print t ",,0,4001,0,,,a.py"
		if (i >= 13 && i <= 20) print t ",,0,4002,2000,,,b.py"
		if (i == 21) print t ",,0,4002,0,,,b.py"
	} }' > in.csv
gpumem-tasks -q in.csv > got.csv
# pid, status, leaked, delay and its bounds: b.py ended between 20.5 and
# 21.5, its memory came back between 22 and 23.
got=$(awk -F, 'NR > 1 { print $3, $12, $11, $10, $13, $14 }' got.csv | sort)
expect_eq "tasks" "$got" "4001 leaked 1000   
4002 released 0 2 0.500 2.500"
