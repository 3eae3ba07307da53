# tasks and usage read the stream once, in memory bounded by the GPUs and
# the live or waiting tasks: an hour and a day of 8 GPUs at 100 ms take
# the same peak memory.  (Measured, not timed.)
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "peak RSS is only meaningful without sanitizers"
gpumem-synth -s random --interval 100ms --duration 10m > short.csv
gpumem-synth -s random --interval 100ms --duration 12h > long.csv
for tool in gpumem-tasks gpumem-usage; do
	a=$("$TOOLS/maxrss" /dev/null $tool -q short.csv)
	b=$("$TOOLS/maxrss" /dev/null $tool -q long.csv)
	echo "$tool: $a KiB for $(nrec short.csv) records, $b KiB for $(nrec long.csv)" >&2
	[ $((b - a)) -lt 2048 ] || die "$tool: peak RSS grew from $a KiB to $b KiB"
done
