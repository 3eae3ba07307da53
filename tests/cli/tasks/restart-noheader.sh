# A compute-apps loop restarted with a longer period and no header
# (--format=csv,noheader: -lms 100, then -l 1 at 20 s): the log's own
# polls say it.  gpumem tasks must find the five processes of synth's
# restart scenario where they truly were (tests/tools/truthcmp.sh), not
# 34 tasks of one poll each, on seeds 1 and 9 to 13.  Logs whose long
# gaps are no restart keep their silence: lost polls (one long gap and
# then the interval again), a sparse log (seed 9 lists no process across
# long gaps of about one length), both without headers too.
. "$TESTS/lib.sh"
F=timestamp,gpu_uuid,gpu_bus_id,pid,process_name,used_gpu_memory
fail=0
check() {	# NAME WINDOW: nv/ against truth.csv
	gpumem-tasks -q nv/query-gpu.csv --fields $F nv/compute-apps.csv \
	    > got.csv || die "$1: tasks: exit $?"
	if out=$(sh "$TESTS/tools/truthcmp.sh" truth.csv got.csv "$2"); then
		echo "$1: $(echo "$out" | tail -n 1)"
	else
		echo "$1: $(echo "$out" | tail -n 1) FAILED"
		echo "$out" | head -n 20 | sed 's/^/	/'
		fail=1
	fi
}
for seed in 1 9 10 11 12 13; do
	rm -rf nv hv
	gpumem-synth -s restart --seed $seed --truth truth.csv --nvsmi nv \
	    --noheader
	# --noheader is the same log with its header lines left out.
	gpumem-synth -s restart --seed $seed --nvsmi hv
	awk '!/^timestamp, /' hv/compute-apps.csv | cmp -s - nv/compute-apps.csv ||
		die "seed $seed: --noheader is not the log without its headers"
	check "restart, seed $seed" 1.3
	# Seed 1's tasks: five, app.py's 1 GiB leak the only one.
	if [ $seed -eq 1 ]; then
		cut -d, -f3,4,11,12 got.csv
	fi
done
for seed in 1 2 3 4; do
	rm -rf nv
	gpumem-synth -s lost-polls --seed $seed --truth truth.csv --nvsmi nv \
	    --noheader
	check "lost-polls, seed $seed" 1
done
rm -rf nv
gpumem-synth -s sparse --seed 9 --truth truth.csv --nvsmi nv --noheader
check "sparse, seed 9" 1.6
[ $fail -eq 0 ] || die "tasks differ from the truth"
