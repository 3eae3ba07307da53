# Fragments captured again after their datagram was complete (editcap -r
# takes the last fragment of each datagram, mergecap puts each copy
# beside its original by time, as merging overlapping captures does):
# duplicates, dropped and counted, never "IP datagrams never complete".
. "$TESTS/lib.sh"
command -v editcap > /dev/null || skip "no editcap"
command -v mergecap > /dev/null || skip "no mergecap"
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (t = 0; t < 4; t++)
		for (i = 0; i < 50; i++)
			printf "176722560%d000000000,10.0.0.7,0,%d,%d,1000,2000,\n", t, i, i
}' > s.csv
# 1020-byte frames in 4 fragments each: packets 4, 8, 12, 16 end them.
gpumem-pcap -q --mtu 300 s.csv > f.pcap
editcap -r f.pcap last.pcap 4 8 12 16
mergecap -w m.pcap f.pcap last.pcap
gpumem-read m.pcap > got.csv 2> err || die "exit $?"
cmp -s got.csv s.csv || die "records: $(diff got.csv s.csv | head -3)"
expect_eq "summary" "$(tail -n 1 err | sed 's/.* from 1 sender//')" \
    ", 4 duplicate IP fragments dropped)"
