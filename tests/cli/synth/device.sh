# Two loops, the device loop: what each sample shows, as runs of equal
# usage (MiB, from ms after the start, samples), for tasks with a ramp
# (1/4, 1/2, then all of it, 200 ms a step), a context overhead, a leak
# that keeps the context too, a release at the instant of the exit, delays
# of 0.05 s, 3 s and 20 s, and a dip of one sample.
. "$TESTS/lib.sh"
runs() {
	awk -F, 'NR > 1 && $4 == 0 {
		ms = substr($1, 1, length($1) - 6)	# exact as a double
		if (NR == 2) start = ms
		ms -= start
		if (n == 0 || $5 != last) {
			if (n) print last, first, n
			last = $5; first = ms; n = 0
		}
		n++
	} END { print last, first, n }'
}
for s in context dip overlap pid-reuse-fast; do
	echo "== $s"
	gpumem-synth -s $s | runs
done
# The device loop at --interval, from the start: 250 ms, 240 samples.
echo "== overlap --interval 250ms"
gpumem-synth -s overlap --interval 250ms | runs
