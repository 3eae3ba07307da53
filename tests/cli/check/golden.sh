# The Markdown summary and the JSON of one run, in full: the slow-release
# scenario under the rules of docs/ci.md, against a baseline in which a
# delay doubled, a task was renamed and one more task ran.
. "$TESTS/lib.sh"
gpumem-synth -s slow-release > run.csv
gpumem-tasks -q run.csv > tasks.csv
{
	sed 's/,1767225695000000000,45,/,1767225672000000000,22,/; s/,torchrun,/,deepspeed,/' tasks.csv
	echo ',0,1999,pytest,1767225601000000000,1767225602000000000,512,512,1767225602000000000,0,0,released'
} > base.csv
cat > leakcheck.yaml <<'YAML'
tolerance_mib: 64
defaults:
  max_leak_mib: 0
  max_release_delay_s: 5
tasks:                       # by process name pattern or pid
  - match: "python*"
    max_release_delay_s: 30
gpus:
  max_unattributed_mib_at_end: 256
baseline:
  max_delay_regression: 25%  # vs --baseline
  max_leak_regression_mib: 128
YAML
rc=0; gpumem-check -q --config leakcheck.yaml --baseline base.csv \
    --markdown summary.md --json - run.csv 2> /dev/null || rc=$?
echo "exit $rc"
cat summary.md
# A leak, without a baseline.
rc=0; gpumem-synth -s leak | gpumem-check -q --markdown - 2> /dev/null || rc=$?
echo "exit $rc"
