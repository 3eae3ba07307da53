# Two loops, the next job on the memory the last one gave back: devices
# every second, processes every 5 s, 3 s after.  A device sample between
# the two polls around a change of a process's memory (here, b.py's
# start) may or may not hold the change, so it is not used to time a
# release (docs/analysis.md); used as if the change came at the later
# poll, it takes b.py's memory for a.py's, still out.
. "$TESTS/lib.sh"

# A recording made the way the loops print it.  a.py (pid 500, 4096 MiB)
# is listed at 3.5, 8.5 and 13.5 s, ends at 16 s, its memory back at
# once, and is listed gone at 18.5 s; b.py (pid 600) starts at 17 s on
# those 4096 MiB, is first listed at 23.5 s, gone at 33.5 s, its memory
# back at 35 s.  The device shows 4096 MiB from 3 s to 34 s, unbroken.
# a.py's memory was back before the poll that shows it gone: delay 0,
# which its bounds must hold.  The samples of 19 to 23 s (after 18.5,
# before 23.5) are left out (-v counts 5), so the first to show it back
# is that of 24 s, after b.py's first listing: 6 s after its end (5.5,
# at one-second samples), between 0 and 10.5 s (24 - 13.5).  Taking
# them for a.py's memory still out would put the lower bound at 4.5 s
# (23 - 18.5), past the truth.  b.py: 2 s after its end (1.5), between
# 0.5 and 6.5 s.
recording '
	for (s = 0; s < 45; s++) {
		dev(s, s >= 3 && s < 35 ? 4096 : 0)
		if (s % 5 == 3 && s <= 18)
			proc(s + 0.5, 500, s <= 13 ? 4096 : 0, "a.py")
		else if (s % 5 == 3 && s <= 33)
			proc(s + 0.5, 600, s <= 28 ? 4096 : 0, "b.py")
	}' > rec.csv
gpumem-tasks -v rec.csv
