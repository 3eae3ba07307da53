# Each input a run reads at once costs a small, bounded amount of memory,
# whatever its length: its read-ahead (64 KiB at a time, not a longest
# line's 1 MiB) and its reorder window (the 4,097 records it holds, not a
# pool grown past them).  40 node logs of 1.3 MB read together take less
# than 1 MiB each above one log alone (measured: about 0.75 MiB each; it
# was 1.7 MiB: tasks took 486 MB for the fleet bench's 200 logs, now 160
# MB).  With --window 1 (inputs known to be in order: nothing held back)
# the window is one record, and each input costs under 128 KiB (measured:
# about 70 KiB).  Nothing is timed.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "peak RSS is only meaningful without sanitizers"
n=40
i=0
while [ $i -lt $n ]; do
	gpumem-synth -s random --seed $i --host node-$i --gpus 8 \
	    --interval 1s --duration 30m -o node-$i.csv
	i=$((i + 1))
done
size=$(wc -c < node-0.csv)
[ "$size" -gt 1200000 ] || die "a log is only $size bytes: it must pass 1 MiB"
# per_log KIB [OPTION...]: what each log adds to the peak RSS of reading
# them all at once, above one alone, must stay under KIB.
per_log() {
	limit=$1
	shift
	one=$("$TOOLS/maxrss" /dev/null gpumem-read -q -j 1 "$@" node-0.csv)
	all=$("$TOOLS/maxrss" /dev/null gpumem-read -q -j 1 "$@" node-*.csv)
	per=$(((all - one) / (n - 1)))
	echo "peak RSS${*:+ with $*}: $one KiB for one log, $all KiB for $n:" \
	    "$per KiB a log" >&2
	[ "$per" -lt "$limit" ] ||
	    die "each input took $per KiB${*:+ with $*}, $limit KiB allowed"
}
per_log 1024
per_log 128 --window 1
