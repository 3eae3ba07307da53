# read -j 2 of one input: its decoding in a thread of its own, the merge
# and the output in the main thread (a pipeline), and the bytes, the
# messages and the exit status of -j 1: a real log of each family of the
# corpus alone, damaged logs alone (with and without --strict, which
# stops in the decoding thread), a capture, and a stream long enough to
# fill the queue many times over (8 batches of 512 records) with a last
# batch that does not fill it.
. "$TESTS/lib.sh"
need_corpus real
same() {
	same_jobs gpumem-read "$@" > same.txt
}
n=0
for d in "$CORPUS"/real/*/; do
	for f in "$d"*; do
		case $f in *.md) continue ;; esac
		same --tz UTC "$f"
		n=$((n + 1))
		break	# a file of each family: jobs-corpus.sh reads them all
	done
done
[ $n -ge 11 ] || die "only $n corpus families"
damaged_inputs
for f in bad-rows.csv bad-date.csv shuffled.csv joined.csv s-bad.csv \
    s-cut.csv s-late.csv junk.txt; do
	same "$f"
	same -v --window 8 "$f"
done
same --strict s-bad.csv
same --strict s-late.csv
same --strict --window 8 shuffled.csv
expect_eq "--strict s-late.csv: exit" "$(cat same.txt | head -n 1 |
    sed 's/.*exit \([0-9]*\),.*/\1/')" 2
# 60000 records and some (awk counts them): 117 batches and a part.
gpumem-synth -s random --seed 3 --interval 100ms --duration 2m --gpus 4 \
    --host h -o long.csv
same long.csv
cp j1.out long.out
expect_eq "records written" "$(($(wc -l < j2.out) - 1))" \
    "$(awk -F, 'NR > 1' long.csv | sort -u | wc -l | tr -d ' ')"
gpumem-synth -s random --seed 4 --duration 10m --gmem --host 10.0.0.7 \
    -o g.csv
gpumem-pcap -q g.csv > g.pcap
same g.pcap
same --filter 'udp port 9717' g.pcap

# The second thread is there while the input is read (and not with -j 1):
# a FIFO held open after its first lines leaves the threads waiting (on
# the pipe, and for the first batch), so their number can be counted.
threads() {
	awk '/^Threads:/ { print $2 }' /proc/$pid/status 2> /dev/null
}
has_threads() {
	[ "$(threads)" = "$1" ]
}
for j in 1 2; do
	rm -f fifo
	mkfifo fifo
	gpumem-read -j $j fifo > fifo$j.out 2> fifo$j.err &
	pid=$!
	exec 3> fifo
	head -n 5000 long.csv >&3
	wait_for 30 has_threads $j || die "-j $j: $(threads) threads"
	tail -n +5001 long.csv >&3
	exec 3>&-
	wait $pid
	cmp -s fifo$j.out long.out || die "-j $j of a FIFO: not -j 1's records"
done
