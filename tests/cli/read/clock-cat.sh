# Two recordings joined with cat: the second starts again at the same
# time, after its own header.  The join is a step back: the second is
# read as continuing one sampling interval after the first, and gpumem
# tasks finds the truth of both, the second's shifted by as much (worked
# out here from the files, with awk).  A capture bundle's sections are
# not steps; one record out of place is not a step either.
. "$TESTS/lib.sh"
gpumem-synth -s slow-release -t ta.csv > a.csv
gpumem-synth -s sequential -t tb.csv > b.csv
cat a.csv b.csv > ab.csv
# The shift, in whole seconds: the second starts 1 s after the first ends.
d=$(awk -F, 'NR == FNR { if (FNR > 1) last = substr($1, 1, 10); next }
	FNR == 2 { print last + 1 - substr($1, 1, 10); exit }' a.csv b.csv)
echo "shift: $d s"
# The truth of both, the second's times shifted by d.
{ cat ta.csv; awk -F, -v OFS=, -v d="$d" 'FNR > 1 {
	for (i = 5; i <= 9; i += (i == 6 ? 3 : 1))
		if (i != 7 && i != 8 && $i != "")
			$i = (substr($i, 1, 10) + d) "000000000"
	print }' tb.csv; } > truth.csv
gpumem-tasks -q ab.csv > tasks.csv
sh "$TESTS/tools/taskcmp.sh" truth.csv tasks.csv || die "the joined stream: tasks differ from the truth"

# The nvidia-smi device logs of the same runs joined: the second's
# header comes again in the middle; its records are b's, d later.
gpumem-synth -s slow-release --nvsmi na
gpumem-synth -s sequential --nvsmi nb
cat na/query-gpu.csv nb/query-gpu.csv > q.csv
gpumem-read -o out.csv q.csv
{ awk -F, '$4 == 0' a.csv; awk -F, -v OFS=, -v d="$d" 'FNR > 1 && $4 == 0 {
	$1 = (substr($1, 1, 10) + d) "000000000"; print }' b.csv; } |
	cut -d, -f1,3,4,5 > want.txt
tail -n +2 out.csv | cut -d, -f1,3,4,5 > got.txt
cmp want.txt got.txt || die "the joined logs: records differ"

# A bundle: three query-gpu sections, each from the same log (their
# times start again: not a step), the third holding the joined log.
rule='################################################################'
{
	for log in na/query-gpu.csv na/query-gpu.csv q.csv; do
		printf '%s\n# load :: query-gpu\n# $ nvidia-smi --query-gpu=timestamp --format=csv -l 1\n%s\n' "$rule" "$rule"
		cat "$log"
	done
} > bundle.txt
gpumem-read -o /dev/null bundle.txt

# A record out of place (moved 170 lines on): the reorder window puts it
# back, no step.
awk 'NR == 30 { held = $0; next } { print } NR == 200 { print held }' na/query-gpu.csv > moved.csv
gpumem-read -o moved.out moved.csv
awk -F, '$4 == 0' a.csv | cut -d, -f1,3,4,5 > want.txt
tail -n +2 moved.out | cut -d, -f1,3,4,5 > got.txt
cmp want.txt got.txt || die "the record out of place: records differ"
