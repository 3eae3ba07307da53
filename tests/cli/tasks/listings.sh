# What one listing of a process tells, in a recording made with awk (one
# loop, a sample a second): train.py (pid 10, 2048 MiB, from 2 s to its
# end at 8 s, memory back at once) is listed without a name at first and
# takes the name it is listed with later; eval.py (pid 20, 1024 MiB from
# 3 s) is listed with its memory unknown from 7 s to 12 s (as WDDM does),
# which keeps it alive, ends at 13 s and has its memory back at 14 s: 1 s
# later, between 0 and 2 s after its last listing; idle.py (pid 30) only
# ever ends, never seen holding memory: no task.
. "$TESTS/lib.sh"
recording '
	for (s = 0; s < 20; s++) {
		dev(s, (s >= 2 && s < 8 ? 2048 : 0) + (s >= 3 && s < 14 ? 1024 : 0))
		if (s >= 2 && s <= 8)
			proc(s, 10, s < 8 ? 2048 : 0, s < 4 ? "" : "train.py")
		if (s >= 3 && s <= 13)
			proc(s, 20, s < 7 ? 1024 : s < 13 ? "" : 0, "eval.py")
		if (s == 9)
			proc(s, 30, 0, "idle.py")
	}' > rec.csv
gpumem-tasks -q rec.csv
