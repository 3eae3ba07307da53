# Two engine rules on recordings made with awk (a sample a second).
# Spread: a (pid 100, 2000 MiB, ends 20 s) and b (pid 200, 3000 MiB, ends
# 22 s) wait; 4000 MiB come back at 25 s: no set of them makes it up and
# neither holds more, so it is spread over them the most recently ended
# first: b released at 25 s (3 s, noted), 1000 MiB of a never back.
# Context cap: c (pid 300) is listed with 1000 MiB while the device rises
# by 6000 at its start (5000 of a program no process lists): a context
# beyond CTX_MAX (4096 MiB) is not believed, so the 1000 MiB back at 23 s
# are all of c's: released 3 s after its end, and the 5000 stay.
. "$TESTS/lib.sh"
recording '
	for (s = 0; s <= 40; s++) {
		dev(s, s < 5 ? 0 : s < 10 ? 2000 : s < 25 ? 5000 : 1000)
		if (s >= 5 && s <= 20)
			proc(s, 100, s < 20 ? 2000 : 0, "a")
		if (s >= 10 && s <= 22)
			proc(s, 200, s < 22 ? 3000 : 0, "b")
	}' > spread.csv
gpumem-tasks spread.csv | cut -d, -f3,4,7-12,15
recording '
	for (s = 0; s <= 40; s++) {
		dev(s, s < 5 ? 0 : s < 23 ? 6000 : 5000)
		if (s >= 5 && s <= 20)
			proc(s, 300, s < 20 ? 1000 : 0, "c")
	}' > context.csv
gpumem-tasks context.csv | cut -d, -f3,4,7-12,15
