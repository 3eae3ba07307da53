# plot reads the stream once in memory bounded by the GPUs and the chart's
# width: 10 minutes and 3 hours of 8 GPUs at 100 ms take the same peak
# memory, read in one thread or in chunks.  (Measured, not timed.)  -j
# is given: without it the long log is read in chunks or not by the
# load average of the moment (12 MiB more in chunks: buffers, a thread),
# the short one never (under 8 MiB).
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "peak RSS is only meaningful without sanitizers"
gpumem-synth -s random --interval 100ms --duration 10m > short.csv
gpumem-synth -s random --interval 100ms --duration 3h > long.csv
for j in 1 2; do
	a=$("$TOOLS/maxrss" /dev/null gpumem-plot -q -j $j --script short.csv)
	b=$("$TOOLS/maxrss" /dev/null gpumem-plot -q -j $j --script long.csv)
	echo "gpumem-plot -j $j: $a KiB for $(nrec short.csv) records, $b KiB for $(nrec long.csv)" >&2
	[ $((b - a)) -lt 2048 ] || die "-j $j: peak RSS grew from $a KiB to $b KiB"
done
