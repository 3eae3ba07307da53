# Memory stays bounded however many connections a capture holds: past
# 65536 TCP connections at once the least recently active are ended, past
# 65536 sender/GPU pairs sequence numbers are not followed; each cap says
# so once and the summary line counts what it did.  No record is lost
# here: every connection's frame was whole before it was ended.
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (i = 0; i < 70000; i++)
		printf "%d,10.%d.%d.%d,%d,0,1,2,3,\n", 1000000000 + i, int(i / 65536), int(i / 256) % 256, i % 256, i % 4
}' > many.csv
gpumem-pcap -q --tcp many.csv > many.pcap
gpumem-read many.pcap > got.csv
echo "exit $?"
cmp -s many.csv got.csv || die "records lost"
