# A line of 1 GiB (streamed from a generator, never stored) in the middle
# of a record stream, and of 64 MiB in a query-gpu log: skipped and named,
# every other line read, in the memory of a small file.  (64 MiB only,
# under ASan.)
. "$TESTS/lib.sh"
size=1073741824
[ "$VARIANT" = normal ] || size=67108864
gpumem-synth -s leak > s.csv
gpumem-synth -s leak --nvsmi logs
# long FILE SIZE: FILE with a line of SIZE bytes after its third line.
long() {
	head -n 3 "$1"
	head -c "$2" /dev/zero | tr '\0' 7
	echo
	tail -n +4 "$1"
}
long s.csv "$size" | "$TOOLS/maxrss" out.csv gpumem-read > rss.txt 2> err.txt
cat err.txt
cmp -s out.csv s.csv || die "the other lines did not read back"
long logs/query-gpu.csv 67108864 | gpumem-read -q --format query-gpu > q.csv 2> err.txt
cat err.txt
gpumem-read -q logs/query-gpu.csv | cmp -s - q.csv || die "query-gpu: the other lines differ"
if [ "$VARIANT" = normal ]; then
	rss=$(cat rss.txt)
	small=$("$TOOLS/maxrss" /dev/null gpumem-read -q s.csv)
	[ "$rss" -lt $((small + 4096)) ] || die "peak RSS $rss KiB, $small KiB without the long line"
fi
exit 0
