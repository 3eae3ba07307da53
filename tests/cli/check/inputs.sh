# Inputs: a record stream, nvidia-smi logs, a task table (detected by its
# header), plain or gzip, named or on standard input.  An input that
# cannot be read, or holds no record, is trouble (exit 2, which wins over
# a failed check), and the reports say so with an error.
. "$TESTS/lib.sh"
gpumem-synth -s leak > leak.csv
gpumem-synth -s leak --nvsmi nv
gpumem-tasks -q leak.csv > tasks.csv
gzip -c tasks.csv > tasks.csv.gz
run() {
	rc=0; gpumem-check "$@" || rc=$?
	echo "$*: exit $rc"
}
run leak.csv
run nv/query-gpu.csv nv/compute-apps.csv
run tasks.csv
run tasks.csv.gz
rc=0; gpumem-check < leak.csv || rc=$?
echo "stdin stream: exit $rc"
rc=0; gzip -c leak.csv | gpumem-check - || rc=$?
echo "stdin gzip stream: exit $rc"
rc=0; gpumem-check < tasks.csv || rc=$?
echo "stdin table: exit $rc"
gpumem-synth -s leak | gpumem-tasks -q | gpumem-check --json -  | grep -c '"verdict": "fail"'
# The baseline may come from standard input when the input does not.
rc=0; gpumem-check --baseline - leak.csv < tasks.csv || rc=$?
echo "stdin baseline: exit $rc"
# Two task tables are read as one run.
gpumem-synth -s clean | gpumem-tasks -q > clean.csv
run tasks.csv clean.csv
# A task table followed by something else: that is not a task table.
run tasks.csv leak.csv
# Nothing to judge is trouble, not a pass.
: > empty.csv
run empty.csv
run missing.csv
# The reports are still written, with an error, and the failed check.
rc=0; gpumem-check --junit r.xml --json r.json leak.csv missing.csv || rc=$?
echo "leak and missing: exit $rc"
grep -c '<error message="the input could not be read in full' r.xml
grep -c 'name="python3 launch.py --listen #1: max_leak_mib"' r.xml
grep -c '"verdict": "trouble"' r.json
# A report that cannot be written is trouble; the others are written.
if [ -w /dev/full ]; then
	rc=0; gpumem-check --junit /dev/full --json ok.json leak.csv || rc=$?
	echo "/dev/full: exit $rc"
	[ -s ok.json ] || die "the JSON report was not written"
fi
# A declared task of a device-only log.
printf 'name,gpu,start,end\njob,0,2026-01-01T00:00:05Z,2026-01-01T00:01:00Z\n' > jobs.csv
rc=0; gpumem-check --tasks jobs.csv nv/query-gpu.csv || rc=$?
echo "declared: exit $rc"
