# The rules of docs/analysis.md, one recording each, written the way the
# situation happens (the awk programs say what the GPU and the process
# did; the expectations follow from that, not from gpumem's output):
# a one-sample dip, context memory, a pid reused without a poll between
# the two lives, polls lost from the process log, two poll loops out of
# step, and the bounds of a delay.
set -eu
. "$TESTS/lib.sh"
hdr=timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name

# col TABLE PID FIELDS [K]: the fields (numbers, comma-separated) of the
# K-th task row (default the first) of pid PID
col() {
	awk -F, -v pid="$2" -v f="$3" -v k="${4:-1}" '
	NR > 1 && $3 == pid && ++seen == k {
		n = split(f, v, ",")
		for (i = 1; i <= n; i++)
			printf "%s%s", $(v[i]), i < n ? "," : "\n"
	}' "$1"
}

# A 7000 MiB leak whose usage dips by 4000 MiB for one sample: a dip is
# no release; all 7000 MiB stay leaked.
awk -v hdr=$hdr 'BEGIN { print hdr
	for (i = 0; i < 60; i++) {
		t = sprintf("%d000000000", 1767225600 + i)
		used = 300 + (i >= 5 ? 7000 : 0) - (i == 30 ? 4000 : 0)
		if (i >= 5 && i < 20) print t ",,0,4242,7000,,,leaky"
		if (i == 20) print t ",,0,4242,0,,,leaky"
		print t ",,0,0," used "," 16384 - used ",16384,"
	} }' > dip.csv
gpumem-tasks -q dip.csv > dip.out
expect_eq "dip: status" "$(col dip.out 4242 12)" leaked
expect_eq "dip: leaked" "$(col dip.out 4242 11)" 7000
# The same dip lasting two samples is memory that came back, in part.
sed 's/^\(176722563[01]000000000,,0,0,\)7300,9084/\13300,13084/' dip.csv > dip2.csv
gpumem-tasks -q dip2.csv > dip2.out
expect_eq "lasting dip: leaked" "$(col dip2.out 4242 11)" 3000

# Context memory: the process lists 6000 MiB, the device holds 6350 for
# it.  It leaks all 6350; a later task holding 2000 (+300) releases at
# once.
awk -v hdr=$hdr 'BEGIN { print hdr
	for (i = 0; i < 80; i++) {
		t = sprintf("%d000000000", 1767225600 + i)
		used = 300 + (i >= 5 ? 6350 : 0) + (i >= 40 && i < 50 ? 2300 : 0)
		if (i >= 5 && i < 20) print t ",,0,4242,6000,,,leaky"
		if (i == 20) print t ",,0,4242,0,,,leaky"
		if (i >= 40 && i < 50) print t ",,0,5000,2000,,,later"
		if (i == 50) print t ",,0,5000,0,,,later"
		print t ",,0,0," used "," 16384 - used ",16384,"
	} }' > ctx.csv
gpumem-tasks -q ctx.csv > ctx.out
expect_eq "context: leaked" "$(col ctx.out 4242 11)" 6350
expect_eq "context: held as listed" "$(col ctx.out 4242 8)" 6000
expect_eq "context: later status" "$(col ctx.out 5000 12)" released
expect_eq "context: later delay" "$(col ctx.out 5000 10)" 0

# pid 8001 leaks 3072 MiB and ends; a new process gets pid 8001 before the
# next poll and ramps up 768, 1536, 3072, then ends and releases at once.
# Two tasks: the first leaked, the second released.
awk -v hdr=$hdr 'BEGIN { print hdr
	for (i = 0; i < 60; i++) {
		t = sprintf("%d000000000", 1767225600 + i)
		b = i >= 15 && i < 25 ? (i == 15 ? 768 : i == 16 ? 1536 : 3072) : 0
		used = 300 + (i >= 5 ? 3072 : 0) + b
		if (i >= 5 && i < 15) print t ",,0,8001,3072,,,python3"
		if (b > 0) print t ",,0,8001," b ",,,python3"
		if (i == 25) print t ",,0,8001,0,,,python3"
		print t ",,0,0," used "," 16384 - used ",16384,"
	} }' > reuse.csv
gpumem-tasks -q reuse.csv > reuse.out
expect_eq "reuse: tasks" "$(nrec reuse.out)" 2
expect_eq "reuse: first" "$(col reuse.out 8001 5,6,11,12,15 2)" \
    "1767225605000000000,1767225615000000000,3072,leaked,pid-reused"
expect_eq "reuse: second" "$(col reuse.out 8001 5,6,10,12 1)" \
    "1767225615000000000,1767225625000000000,0,released"
# A process that frees memory as it runs is one process.
awk -v hdr=$hdr 'BEGIN { print hdr
	for (i = 0; i < 40; i++) {
		t = sprintf("%d000000000", 1767225600 + i)
		m = i < 15 ? 3072 : 1024
		used = 300 + (i >= 5 && i < 25 ? m : 0)
		if (i >= 5 && i < 25) print t ",,0,8001," m ",,,python3"
		if (i == 25) print t ",,0,8001,0,,,python3"
		print t ",,0,0," used "," 16384 - used ",16384,"
	} }' > frees.csv
gpumem-tasks -q frees.csv > frees.out
expect_eq "frees: tasks" "$(nrec frees.out)" 1
expect_eq "frees: task" "$(col frees.out 8001 8,10,12)" "1024,0,released"

# Polls lost from the process log: the two nvidia-smi logs of three tasks,
# with four polls in a row missing from the process log twice (during
# the first and the second task: long enough for the reader to end them).
# Still three tasks, released at once.
gpumem-synth -s sequential --nvsmi nv --truth truth.csv
awk 'NR == 1 || !/00:00:1[0-3]\.000|00:00:(29|30|31|32)\.000/' \
    nv/compute-apps.csv > lost.csv
gpumem-tasks -q nv/query-gpu.csv lost.csv > lost.out
sh "$TESTS/tools/taskcmp.sh" truth.csv lost.out || die "lost polls"
expect_eq "lost polls: notes" "$(cut -d, -f15 lost.out | tr '\n' ' ')" \
    "note resumed resumed  "

# Two poll loops out of step: the process log's clock runs 700 ms ahead
# and 400 ms behind the device log's, for every scenario.  Each time
# stays within one sampling interval of the truth.
cat > shift.awk <<'EOF'
BEGIN { FS = OFS = ", " }
/^[0-9]/ {
	split($1, a, /[\/ :.]/)
	t = mktime(a[1] " " a[2] " " a[3] " " a[4] " " a[5] " " a[6]) * 1000 + a[7] + off
	ms = t % 1000
	$1 = strftime("%Y/%m/%d %H:%M:%S", (t - ms) / 1000, 1) sprintf(".%03d", ms)
}
{ print }
EOF
for s in sequential slow-release leak concurrent two-waiting clean demo; do
	for off in 700 -400; do
		rm -rf nv
		gpumem-synth -s $s --nvsmi nv --truth truth.csv
		awk -v off=$off -f shift.awk nv/compute-apps.csv > ca.csv
		gpumem-tasks -q nv/query-gpu.csv ca.csv > got.csv
		sh "$TESTS/tools/taskcmp.sh" truth.csv got.csv 1 ||
			die "$s, process loop $off ms off"
	done
done

# The bounds of a delay: the process was last listed at 19 s and missing
# at 20 s; the device showed its memory out at 22 s and back at 23 s.
# The delay is 3 s, between 2 s and 4 s.  Across a hole in the device
# samples (none from 21 s to 58 s), the bounds widen to the hole: the
# process went in (19 s, 20 s], its memory came back in (20 s, 59 s].
gpumem-synth -s slow-release > slow.csv
gpumem-tasks -q slow.csv > slow.out
expect_eq "bounds" "$(col slow.out 2001 10,13,14,15)" "3,2.000,4.000,"
awk -F, 'NR == 1 || $4 != 0 || $1 < 1767225621000000000 || $1 >= 1767225659000000000' \
    slow.csv > hole.csv
gpumem-tasks -q hole.csv > hole.out
expect_eq "bounds across a hole" "$(col hole.out 2001 13,14,15)" "0.000,40.000,gap"
gpumem-tasks -q -t text --utc hole.csv > hole.txt
grep -q ' 39 s (0–40 s) .* released (gap)$' hole.txt ||
	die "text: $(cat hole.txt)"

# A task that holds no more than the tolerance is back within it by
# definition: released at the first sample after its end, never "leaked
# 50 MiB" (its memory did come back here; with --tolerance 32 the same
# release is seen as memory).
awk -v hdr=$hdr 'BEGIN { print hdr
	for (i = 0; i < 30; i++) {
		t = sprintf("%d000000000", 1767225600 + i)
		used = 300 + (i >= 5 && i < 15 ? 50 : 0)
		if (i >= 5 && i < 15) print t ",,0,77,50,,,tiny"
		if (i == 15) print t ",,0,77,0,,,tiny"
		print t ",,0,0," used "," 16384 - used ",16384,"
	} }' > tiny.csv
gpumem-tasks -q tiny.csv > tiny.out
expect_eq "tiny" "$(col tiny.out 77 10,11,12)" "0,0,released"
gpumem-tasks -q --tolerance 32 tiny.csv > tiny32.out
expect_eq "tiny, tolerance 32" "$(col tiny32.out 77 10,11,12)" "0,0,released"
# Its memory kept: leaked when the tolerance is below it, released (within
# the tolerance) when it is not.
awk -F, -v OFS=, '$4 == 0 && $1 >= 1767225615000000000 { $5 = 350; $6 = 16034 } 1' \
    tiny.csv > tinyleak.csv
gpumem-tasks -q --tolerance 32 tinyleak.csv > tinyleak.out
expect_eq "tiny leak" "$(col tinyleak.out 77 11,12)" "50,leaked"
