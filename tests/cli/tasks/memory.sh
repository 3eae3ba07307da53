# tasks and usage read the stream once, in memory bounded by the GPUs and
# the live or waiting tasks: 10 minutes and 12 hours of 8 GPUs at 100 ms
# take the same peak memory, read in one thread or in chunks.  (Measured,
# not timed.)  -j is given: without it the long log is read in chunks or
# not by the load average of the moment, the short one never
# (plot/memory.sh).
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "peak RSS is only meaningful without sanitizers"
gpumem-synth -s random --interval 100ms --duration 10m > short.csv
gpumem-synth -s random --interval 100ms --duration 12h > long.csv
for tool in "gpumem-tasks -j 1" "gpumem-tasks -j 2" "gpumem-usage -j 1" \
    "gpumem-usage -j 2"; do
	a=$("$TOOLS/maxrss" /dev/null $tool -q short.csv)
	b=$("$TOOLS/maxrss" /dev/null $tool -q long.csv)
	echo "$tool: $a KiB for $(nrec short.csv) records, $b KiB for $(nrec long.csv)" >&2
	[ $((b - a)) -lt 2048 ] || die "$tool: peak RSS grew from $a KiB to $b KiB"
done
