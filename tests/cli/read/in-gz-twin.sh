# A directory holding x.csv and x.csv.gz (gzip -k, a copy kept after a
# rotation): the same log twice is read once, and said; two different
# logs under the one name are both read, and said.
. "$TESTS/lib.sh"
gpumem-synth -s concurrent --nvsmi run
gpumem-synth -s concurrent > want
gzip -k run/query-gpu.csv
gpumem-read -q run > got 2> err || die "exit $?"
cmp -s got want || die "run: records differ"
[ -s err ] && die "-q: $(cat err)"
gpumem-read run 2>&1 > /dev/null | grep 'query-gpu.csv.gz'
# An older copy: its four polls are the log's first ones, so they are
# read twice (said by the merge), and nothing is lost.
gpumem-synth -s concurrent --nvsmi old
head -n 5 old/query-gpu.csv | gzip > old/query-gpu.csv.gz
rc=0; gpumem-read old > got 2> err || rc=$?
echo "exit $rc"
grep 'query-gpu.csv.gz' err | head -n 2
expect_eq "old: records" $(nrec got) $(($(nrec want) + 4))
# The same length, one value changed: different data, both read.
gpumem-synth -s concurrent --nvsmi one
sed '2s/16384 MiB/16383 MiB/' one/query-gpu.csv | gzip > one/query-gpu.csv.gz
gpumem-read one 2>&1 > /dev/null | grep 'query-gpu.csv.gz' | head -n 1
# zstd keeps its input by default, xz -k and bzip2 -k on request: the
# same rule for each compression gpumem reads.
for z in zstd xz bzip2; do
	command -v $z > /dev/null || continue
	gpumem-synth -s concurrent --nvsmi $z
	$z -q -k $z/compute-apps.csv
	gpumem-read -q $z > got 2> err || die "$z: exit $?"
	cmp -s got want || die "$z: records differ"
	gpumem-read $z 2>&1 > /dev/null | grep -c 'hold the same log' |
	    sed "s/^/$z: /"
done
