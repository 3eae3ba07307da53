# An NTP correction: the clock steps back 5 min at 00:00:40 in both
# nvidia-smi logs of a run (made with date(1) from gpumem synth's logs).
# Each log says so once, at its line; the records after the step read as
# continuing, so the records are synth's own stream again, and gpumem
# tasks finds the synth truth.  --strict makes the step trouble.
. "$TESTS/lib.sh"
gpumem-synth -s slow-release --nvsmi nv -t truth.csv
gpumem-synth -s slow-release > stream.csv
clock_step nv/query-gpu.csv '2026-01-01 00:00:40' 300 > q.csv
clock_step nv/compute-apps.csv '2026-01-01 00:00:40' 300 > c.csv
# The step as the logs show it.
sed -n '41,42p' q.csv | cut -c1-23
sh "$TESTS/tools/synthcmp.sh" stream.csv truth.csv q.csv c.csv ||
	die "the stepped logs are not synth's run"
# The device samples about the step, as read: 00:00:39 and 00:00:40.
gpumem-read -q q.csv | sed -n '41,42p'
# Unsteady for --strict.
rc=0
gpumem-read --strict -o /dev/null q.csv c.csv || rc=$?
echo "strict: exit $rc"

# 8 GPUs: a poll is 8 rows; the clock steps back 1 h at 00:00:30.
gpumem-synth -s multi-gpu --nvsmi nv8 -t truth8.csv
clock_step nv8/query-gpu.csv '2026-01-01 00:00:30' 3600 > q8.csv
clock_step nv8/compute-apps.csv '2026-01-01 00:00:30' 3600 > c8.csv
gpumem-tasks -q q8.csv c8.csv > tasks8.csv
sh "$TESTS/tools/taskcmp.sh" truth8.csv tasks8.csv || die "8 GPUs: tasks differ from the truth"

# Not steps: two polls swapped at a 10 s interval (10 s back is the
# reorder window's: less than two intervals), and a forward jump (a gap,
# said nowhere: the times are read as they are).
gpumem-synth -s sequential --interval 10s --nvsmi nv10 -t truth10.csv
awk 'NR == 6 { held = $0; next } { print } NR == 7 { print held }' nv10/query-gpu.csv > q10.csv
sed -n '6,7p' q10.csv | cut -c1-23
gpumem-tasks -q q10.csv nv10/compute-apps.csv > tasks10.csv
sh "$TESTS/tools/taskcmp.sh" truth10.csv tasks10.csv 10 || die "10 s: tasks differ from the truth"
clock_step nv10/compute-apps.csv '2026-01-01 00:01:00' -600 > c10.csv
gpumem-read c10.csv | sed -n '7,8p'
# A step back 15 s at a 10 s interval is less than two intervals: the
# reorder window's, not a step (8 GPUs: each poll after it is 8 rows 5 s
# behind the latest).
gpumem-synth -s multi-gpu --interval 10s --nvsmi nv8s
clock_step nv8s/query-gpu.csv '2026-01-01 00:01:00' 15 > q15.csv
gpumem-read -o /dev/null q15.csv
