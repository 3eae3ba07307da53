# gzip bombs: small files that inflate a thousandfold.  gpumem streams
# gzip through a fixed buffer whatever the ratio, so a bomb costs time in
# proportion to what it inflates to and never memory; there is no ratio
# beyond which it refuses (a log of identical lines is a bomb too).  1 GiB
# of zeros is read through (NUL bytes before text are a cut log's, and may
# be as long) and refused as binary data, 1 GiB of blank lines is an
# empty input, 1 GiB of records is read to the last one (16 MiB under
# ASan), in the memory of a small file.
. "$TESTS/lib.sh"
mib=1024
[ "$VARIANT" = normal ] || mib=16
# bomb CHUNK: $mib copies of the gzip member of CHUNK (1 MiB).
bomb() {
	gzip -9 -c "$1" > chunk.gz
	i=0
	while [ $i -lt $mib ]; do
		cat chunk.gz
		i=$((i + 1))
	done
}
head -c 1048576 /dev/zero > zeros
bomb zeros > zeros.gz
rc=0; gpumem-read zeros.gz || rc=$?
echo "exit $rc"
yes '' | head -c 1048576 > blank
bomb blank > blank.gz
rc=0; gpumem-read blank.gz || rc=$?
echo "exit $rc"
# 24384 records of 43 bytes: 1048512 bytes a chunk.
echo timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name | gzip > recs.gz
yes 1767225600000000000,,0,0,100,16284,16384, | head -n 24384 > recs
bomb recs >> recs.gz
size=$(wc -c < recs.gz)
[ "$size" -lt $((mib * 4096)) ] || die "the bomb is $size bytes"
"$TOOLS/maxrss" /dev/null gpumem-read recs.gz > rss.txt 2> err.txt
# Every record is the same sample: the first is read, the rest skipped
# as duplicates, all of them read through.
sed "s/ $((mib * 24384 - 1))/ N - 1/g" err.txt
if [ "$VARIANT" = normal ]; then
	rss=$(cat rss.txt)
	[ "$rss" -lt 16384 ] || die "peak RSS $rss KiB reading a bomb"
fi
exit 0
