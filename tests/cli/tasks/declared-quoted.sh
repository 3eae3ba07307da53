# Task names with commas and quotes in a --tasks CSV (RFC 4180, as a
# spreadsheet writes them), columns in any order with spaces around
# values; the tasks are judged as with plain names (truth: gpumem synth).
. "$TESTS/lib.sh"

gpumem-synth -s concurrent --nvsmi nv --truth truth.csv
# The names: "train, v2", say "hi", ollama (in the truth's order).
echo 'start,end,"name",gpu' > jobs.csv
tail -n +2 truth.csv | while IFS=, read -r host gpu pid name start end rest; do
	echo "$start $end"
done | awk 'NR == 1 { n = "\"train, v2\"" } NR == 2 { n = "\"say \"\"hi\"\"\"" }
    NR == 3 { n = "ollama" } { print $1, $2, n }' |
    while read -r start end name; do
	echo "$(iso "$start") , $(iso "$end"),$name, 0"
done >> jobs.csv
awk -F, -v OFS=, 'NR > 1 { $3 = 0 } 1' truth.csv > want.csv
gpumem-tasks -q --tasks jobs.csv nv/query-gpu.csv > got.csv
# taskcmp splits at commas: compare without the names, then show them.
cut -d, -f1-3,5- want.csv > w.csv
sed 's/"train, v2"/train v2/' got.csv | cut -d, -f1-3,5-12 > g.csv
sh "$TESTS/tools/taskcmp.sh" w.csv g.csv || die "differs from the truth"
gpumem-tasks -q -t text --utc --tasks jobs.csv nv/query-gpu.csv
gpumem-tasks -q -t json --tasks jobs.csv nv/query-gpu.csv | grep -o '"name": "[^,]*,[^,]*,'

# A quote left open is bad input: named by file and line, exit 2.
printf 'name,gpu,start,end\n"open,0,2026-01-01T00:00:05Z,2026-01-01T00:00:20Z\n' > bad.csv
rc=0
gpumem-tasks --tasks bad.csv nv/query-gpu.csv || rc=$?
echo "exit $rc"
