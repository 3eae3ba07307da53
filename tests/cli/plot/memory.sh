# plot reads the stream once in memory bounded by the GPUs and the chart's
# width: 10 minutes and 3 hours of 8 GPUs at 100 ms take the same peak
# memory.  (Measured, not timed.)
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "peak RSS is only meaningful without sanitizers"
gpumem-synth -s random --interval 100ms --duration 10m > short.csv
gpumem-synth -s random --interval 100ms --duration 3h > long.csv
a=$("$TOOLS/maxrss" /dev/null gpumem-plot -q --script short.csv)
b=$("$TOOLS/maxrss" /dev/null gpumem-plot -q --script long.csv)
echo "gpumem-plot: $a KiB for $(nrec short.csv) records, $b KiB for $(nrec long.csv)" >&2
[ $((b - a)) -lt 2048 ] || die "peak RSS grew from $a KiB to $b KiB"
