# gpumem read --live: each record is written as soon as a later one has
# been read (not before), output flushed while reading waits; logs read
# live through FIFOs give the same stream as the files (the records of
# vanished processes included).
. "$TESTS/lib.sh"
mkfifo in.fifo
gpumem-read --live in.fifo > out.csv 2> err.txt &
pid=$!
bg_add $pid
exec 3> in.fifo
echo "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name" >&3
rec() {
	echo "176722560$1000000000,h,0,0,$1,10,20,"
}
has() {
	grep -q "^$(rec $1)\$" out.csv
}
rec 1 >&3
for k in 2 3 4 5; do
	! has $(($k - 1)) || die "record $(($k - 1)) written before record $k came"
	rec $k >&3
	wait_for 30 has $(($k - 1)) || die "record $(($k - 1)) not written when record $k came"
done
exec 3>&-
wait $pid
expect_eq "exit status" $? 0
expect_eq "records" "$(nrec out.csv)" 5
grep -q '^gpumem-read: in.fifo: 5 records (gpumem record stream)$' err.txt || die "$(cat err.txt)"

mkfifo q.fifo a.fifo
for s in demo multi-gpu pid-reuse; do
	rm -rf logs
	gpumem-synth -s $s --nvsmi logs > /dev/null
	gpumem-read -q logs > want.csv
	cat logs/query-gpu.csv > q.fifo &
	cat logs/compute-apps.csv > a.fifo &
	gpumem-read -q --live q.fifo a.fifo > got.csv || die "$s: exit $?"
	wait
	cmp -s want.csv got.csv || die "$s: $(diff want.csv got.csv | head -5)"
done
