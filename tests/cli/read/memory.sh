# Reading a 100 MB log takes the same peak memory as reading a 1 MB one:
# the work is a stream.  (Memory is measured, nothing is timed.)
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "peak RSS is only meaningful without sanitizers"
gpumem-synth -s random --interval 100ms --duration 150s --nvsmi small
gpumem-synth -s random --interval 100ms --duration 4h --nvsmi big
size=$(cat big/query-gpu.csv big/compute-apps.csv | wc -c)
[ "$size" -gt 100000000 ] || die "big input is only $size bytes"
small=$("$TOOLS/maxrss" /dev/null gpumem-read -q small/query-gpu.csv small/compute-apps.csv)
large=$("$TOOLS/maxrss" /dev/null gpumem-read -q big/query-gpu.csv big/compute-apps.csv)
echo "peak RSS: $small KiB for $(cat small/*.csv | wc -c) bytes, $large KiB for $size bytes" >&2
[ $((large - small)) -lt 2048 ] || die "peak RSS grew from $small KiB to $large KiB"
