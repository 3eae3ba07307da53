# A fake-GPU run of "gpumem record -- sleep 2": the stand-in nvidia-smi
# shows sleep holding 2 GiB, and 1 s longer after it ends.  read | tasks
# find that one task, released about 1 s after its end.
# alone: the stand-in GPU's release is timed by the clock, polled at 100 ms
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
export FAKE_GPU_COMM=sleep FAKE_GPU_MIB=2048 FAKE_GPU_RELEASE_MS=1000
gpumem-record --interval 100ms --before 500ms --after 2s -o run -- sleep 2
expect_eq "exit status" $? 0
for f in query-gpu.csv compute-apps.csv meta; do
	[ -s run/$f ] || die "run/$f missing or empty"
done
grep -q '^command: sleep 2$' run/meta || die "meta: $(cat run/meta)"
grep -q '^exit: status 0$' run/meta || die "meta: $(cat run/meta)"
grep -q '^interval_ms: 100$' run/meta || die "meta: $(cat run/meta)"
head -n 1 run/query-gpu.csv | grep -q 'memory.reserved \[MiB\]' || die "no memory.reserved column"
gpumem-read run | gpumem-tasks -q > tasks.csv || die "read | tasks: exit $?"
expect_eq "tasks" "$(nrec tasks.csv)" 1
IFS=, read -r host gpu pid name start end peak held release delay leaked status rest <<ROW
$(tail -n 1 tasks.csv)
ROW
expect_eq "name" "$name" sleep
expect_eq "status" "$status" released
expect_eq "peak" "$peak" 2048
expect_eq "leaked" "$leaked" 0
# The delay: 1 s, known to within a sampling interval or two (on a loaded
# machine the loops sample less often than asked: use what they did).
iv=$(gpumem-read -q run | gpumem-tasks -q -t json | sed -n 's/.*"interval_s": \([0-9.]*\).*/\1/p')
[ -n "$iv" ] || die "no sampling interval"
awk -v d="$delay" -v iv="$iv" 'BEGIN { e = d - 1; if (e < 0) e = -e; exit !(e <= 3 * iv + 0.3) }' ||
	die "delay $delay s (interval $iv s)"
# The task lasted about the 2 s of sleep.
awk -v s="$start" -v e="$end" -v iv="$iv" 'BEGIN { d = (e - s) / 1e9 - 2; if (d < 0) d = -d; exit !(d <= 3 * iv + 0.4) }' ||
	die "lasted $(( (end - start) / 1000000 )) ms (interval $iv s)"
