# Two loops, the process loop far behind the device loop: devices every
# second, processes every 5 s, 3 s after.  A device sample is judged only
# once the process poll after it is in (1.5 poll intervals later,
# docs/analysis.md); judged at once, it would count a process still
# listed whose memory is already back, or miss one that is gone.
. "$TESTS/lib.sh"

# A recording made the way the loops print it.  train.py (pid 500, 4096
# MiB) is listed at 3.5, 8.5, ..., 18.5 s and gone at 23.5 s; its memory
# is back at the device sample of 20 s, before the poll that shows it
# gone: delay 0, between 0 and 1.5 s (20 - 18.5).  eval.py (pid 600,
# 2048 MiB) is listed at 28.5 and 33.5 s, gone at 38.5 s, its memory back
# at 40 s: 1.5 s after its end (2 s at one-second samples), between 0.5 s
# (39 - 38.5) and 6.5 s (40 - 33.5).
recording '
	for (s = 0; s < 45; s++) {
		dev(s, (s >= 3 && s < 20 ? 4096 : 0) + (s >= 28 && s < 40 ? 2048 : 0))
		if (s % 5 != 3)
			continue
		if (s <= 23)
			proc(s + 0.5, 500, s <= 18 ? 4096 : 0, "train.py")
		if (s >= 28 && s <= 38)
			proc(s + 0.5, 600, s <= 33 ? 2048 : 0, "eval.py")
	}' > rec.csv
gpumem-tasks -q rec.csv

# The two-loop scenarios whose tasks outlive a poll, at these intervals,
# against their truth: starts and ends within one process interval.
for s in context dip pid-reuse-fast overlap; do
	gpumem-synth -s "$s" --interval 1s --proc-interval 5s --proc-offset 3s \
	    --truth truth.csv > stream.csv
	gpumem-tasks -q stream.csv > got.csv || die "$s: tasks: exit $?"
	out=$(sh "$TESTS/tools/truthcmp.sh" truth.csv got.csv 5) ||
		{ echo "$out"; die "$s: tasks differ from the truth"; }
	echo "$s: $(echo "$out" | tail -n 1)"
done
