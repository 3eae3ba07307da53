# Reading a 100 MB TCP capture takes the same peak memory as reading a
# 1 MB one: packets, reassembly and records all stream.  (Memory is
# measured, nothing is timed.)
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "peak RSS is only meaningful without sanitizers"
gpumem-synth -s random --gmem --host 10.0.0.7 --interval 100ms --duration 150s |
	gpumem-pcap -q --tcp --segment 500 -o small.pcap
gpumem-synth -s random --gmem --host 10.0.0.7 --interval 100ms --duration 2h |
	gpumem-pcap -q --tcp --segment 500 -o big.pcap
size=$(wc -c < big.pcap)
[ "$size" -gt 100000000 ] || die "big capture is only $size bytes"
small=$("$TOOLS/maxrss" /dev/null gpumem-read -q small.pcap)
large=$("$TOOLS/maxrss" /dev/null gpumem-read -q big.pcap)
echo "peak RSS: $small KiB for $(wc -c < small.pcap) bytes, $large KiB for $size bytes" >&2
[ $((large - small)) -lt 2048 ] || die "peak RSS grew from $small KiB to $large KiB"
