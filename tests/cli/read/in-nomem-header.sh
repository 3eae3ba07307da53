# A query-gpu log whose header names no memory field (utilization and
# power logging, as `nvidia-smi --query-gpu=timestamp,index,
# utilization.gpu,power.draw --format=csv -l 1 > util.csv` writes it) is
# said to be that, not taken for a header-less log whose first row is the
# header; a log whose header names memory too still reads.
. "$TESTS/lib.sh"
gpumem-synth -s demo -n nv
TABLE=nv/query-gpu.csv
export TABLE
smi() {
	sh "$TESTS/tools/smireplay.sh" "$@"
}
smi --query-gpu=timestamp,index,utilization.gpu,power.draw --format=csv > util.csv
smi --query-gpu=timestamp,index,temperature.gpu --format=csv,nounits > temp.csv
head -n 1 util.csv
for f in util.csv temp.csv; do
	rc=0; gpumem-read $f || rc=$?
	echo "exit $rc"
done
smi --query-gpu=timestamp,index,utilization.gpu,power.draw,memory.used,memory.total --format=csv > mem.csv
gpumem-read -q mem.csv > got
cut -d, -f1-5,7 got > got-used
gpumem-read -q nv/query-gpu.csv | cut -d, -f1-5,7 > want
cmp -s got-used want || die "mem.csv: records differ"
