# A capture of more streams than an input follows clocks for (1024 per
# input, source.h): the streams past them are read as they are, never on
# a clock they share (issue 31).  1024 senders send one frame each, then
# two more, X and Y, send by turns of three frames, Y's clock 19 s ahead
# of X's: every record as stamped, nothing said of clocks.  Written from
# the specs by tests/tools/gmemcap.py.
. "$TESTS/lib.sh"
awk 'BEGIN {
	t0 = 1767225600
	for (i = 0; i < 1024; i++)
		printf "10.0.%d.%d 5000 0 0 0 %d000000000 %d\n", i / 256,
		    i % 256, t0, i + 1
	for (i = 0; i < 30; i++) {
		x = int(i / 3) % 2
		k = int(i / 6) * 3 + i % 3
		printf "10.1.0.%d 5000 0 %d 0 %d000000000 %d\n", x + 1, k,
		    t0 + k + 19 * x, 2000 + i
	}
}' > spec.txt
awk '{ printf "%s,%s,%s,0,%s,%d,8192,\n", $6, $1, $3, $7, 8192 - $7 }' \
    spec.txt | sort > want.txt
python3 "$TESTS/tools/gmemcap.py" cap.pcap < spec.txt
gpumem-read cap.pcap 2> err.txt | tail -n +2 | sort | cmp - want.txt ||
	die "records differ"
! grep -q clock err.txt || die "$(cat err.txt)"
