# Memory no process list shows (desktop graphics, another container)
# that rises in the middle of a job's life is not the job's context
# memory: context comes with a program's first allocation.  A recording
# made with awk, 1 s polls, the process loop 300 ms behind: a.py (pid
# 100) holds 4096 MiB from 10 s to 30 s and gives it back at once (true
# delay 0); the desktop takes 512 MiB from 15 s to 45 s.  Before, a.py's
# release waited for the desktop's drop (14 s late).  A job with 350 MiB
# of context from its first poll that leaks, the desktop's 512 MiB
# staying to the end, leaked 4446 MiB (its context measured, not the
# desktop's memory: 4958 before).
. "$TESTS/lib.sh"
recording '
	for (s = 0; s < 60; s++) {
		dev(s, 300 + (s >= 10 && s <= 30 ? 4096 : 0) + (s >= 15 && s < 45 ? 512 : 0))
		if (s >= 10 && s <= 30)
			proc(s + 0.3, 100, 4096, "a.py")
		if (s == 31)
			proc(s + 0.3, 100, 0, "a.py")
	}' > desk.csv
gpumem-tasks -q desk.csv | cut -d, -f3,6,9,10,11,12,13,14
recording '
	for (s = 0; s < 60; s++) {
		dev(s, 300 + (s >= 10 ? 4096 + 350 : 0) + (s >= 15 ? 512 : 0))
		if (s >= 10 && s <= 30)
			proc(s + 0.3, 100, 4096, "a.py")
		if (s == 31)
			proc(s + 0.3, 100, 0, "a.py")
	}' > ctx.csv
gpumem-tasks -q ctx.csv | cut -d, -f3,11,12
# The same leak, the desktop's 512 MiB gone at 45 s while the leak waits:
# that drop is the desktop's (it rose amid a.py's life, while no task
# came or went), not a part of the leak given back: still 4446 MiB.
recording '
	for (s = 0; s < 60; s++) {
		dev(s, 300 + (s >= 10 ? 4096 + 350 : 0) + (s >= 15 && s < 45 ? 512 : 0))
		if (s >= 10 && s <= 30)
			proc(s + 0.3, 100, 4096, "a.py")
		if (s == 31)
			proc(s + 0.3, 100, 0, "a.py")
	}' > gone.csv
gpumem-tasks -q gone.csv | cut -d, -f3,11,12
