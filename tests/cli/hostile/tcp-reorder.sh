# A TCP stream of a million segments out of order: 8-byte segments of one
# GMEM connection, every pair swapped (1280763 packets), reads back
# every record exactly, in the memory of a small capture.  The same
# segments all backwards (the receiver's acknowledgements of the end come
# first, as if the capture had missed everything before) are given up as
# the reassembler's rules say and counted, in bounded memory.  (An hour of
# samples under ASan instead of four.)
. "$TESTS/lib.sh"
dur=4h
[ "$VARIANT" = normal ] || dur=1h
gpumem-synth -s random --gmem --host 10.0.0.7 --gpus 1 --interval 100ms \
    --duration $dur -o s.csv
gpumem-pcap -q --tcp --segment 8 -o seg.pcap s.csv
n=$("$TOOLS/pcapedit" seg.pcap | wc -l)
[ "$VARIANT" != normal ] || [ "$n" -gt 1000000 ] || die "only $n packets"
# Packets 1-3 are the handshake, the last one the FIN.
"$TOOLS/pcapedit" seg.pcap pairs.pcap pairs 4-$((n - 1))
"$TOOLS/maxrss" out.csv gpumem-read pairs.pcap > rss.txt 2> err.txt
sed "s/ $n packets/ N packets/; s/[0-9]* records/R records/; s/[0-9]* GMEM frames/F GMEM frames/" err.txt
cmp -s out.csv s.csv || die "the records did not read back"
"$TOOLS/pcapedit" seg.pcap rev.pcap reverse 4-$((n - 1))
"$TOOLS/maxrss" out.csv gpumem-read rev.pcap > rss2.txt 2> err.txt
sed "s/ $n packets/ N packets/; s/[0-9][0-9]*/K/g" err.txt
if [ "$VARIANT" = normal ]; then
	gpumem-synth -s leak --gmem --host 10.0.0.7 |
		gpumem-pcap -q --tcp --segment 8 -o small.pcap
	small=$("$TOOLS/maxrss" /dev/null gpumem-read -q small.pcap)
	for f in rss.txt rss2.txt; do
		[ "$(cat $f)" -lt $((small + 8192)) ] ||
			die "peak RSS $(cat $f) KiB, $small KiB for a small capture"
	done
fi
exit 0
