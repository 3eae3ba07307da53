# Duplicate samples: the same line twice (awk), in both nvidia-smi logs
# and in the record stream.  Each repeat is skipped and counted (records
# + skipped = the lines read); the records are synth's own again and
# gpumem tasks finds the truth.  The same time with another value, or
# another host, is no duplicate.
. "$TESTS/lib.sh"
gpumem-synth -s demo --nvsmi nv -t truth.csv
gpumem-synth -s demo > stream.csv
awk '{ print } NR > 1 && NR % 10 == 0 { print }' nv/query-gpu.csv > q.csv
awk '{ print } NR == 5 || NR == 9 { print }' nv/compute-apps.csv > c.csv
echo "lines: $(nrec q.csv) $(nrec c.csv)"
sh "$TESTS/tools/synthcmp.sh" stream.csv truth.csv q.csv c.csv ||
	die "the logs with duplicates are not synth's run"

# Not a duplicate: line 10 again with 1 MiB more used.
awk -F', ' -v OFS=', ' '{ print } NR == 10 { $7 = $7 + 1 " MiB"; print }' nv/query-gpu.csv > v.csv
sed -n '10,11p' v.csv | cut -d, -f1,2,7
gpumem-read -o /dev/null v.csv

# The record stream: every 7th process row twice; and two hosts with the
# same samples at the same times (merged in time order) are not repeats.
awk -F, '{ print } NR > 1 && $4 != 0 && NR % 7 == 0 { print }' stream.csv > s2.csv
gpumem-read -o s2.out s2.csv
cmp stream.csv s2.out || die "the stream with repeats is not the stream"
gpumem-synth -s demo --host a > a.csv
gpumem-synth -s demo --host b > b.csv
{ head -n 1 a.csv; tail -n +2 a.csv | awk '{ print NR * 2 "\t" $0 }';
	tail -n +2 b.csv | awk '{ print NR * 2 + 1 "\t" $0 }'; } |
	sort -n | cut -f2 > ab.csv
sed -n '2,3p' ab.csv
gpumem-read -o /dev/null ab.csv
