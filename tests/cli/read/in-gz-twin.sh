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
# An older copy: its polls are the log's first ones, so each is read
# twice (said by the merge) and nothing is lost.
gpumem-synth -s concurrent --nvsmi old
head -n 5 old/query-gpu.csv | gzip > old/query-gpu.csv.gz
rc=0; gpumem-read old > got 2> err || rc=$?
echo "exit $rc"
grep 'query-gpu.csv.gz' err | head -n 2
cmp -s got want || die "old: records differ"
