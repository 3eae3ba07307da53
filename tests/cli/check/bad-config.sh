# Trouble is exit 2, before any report is written: a bad configuration
# (named by file, line and key), a bad flag, a baseline that is not a
# task table or has a damaged row, two reports on standard output.
. "$TESTS/lib.sh"
gpumem-synth -s clean > s.csv
gpumem-tasks -q s.csv > t.csv
try() {
	printf '%s\n' "$@" > c.yaml
	rc=0; gpumem-check --config c.yaml --junit r.xml s.csv || rc=$?
	echo "exit $rc"
	! [ -e r.xml ] || die "a report was written"
}
try 'defaults:' '  max_leak_mib: none'
try 'defaults:' '  max_leak_mib: -1'
try 'defaults:' '  max_release_delay_s: soon'
try 'defaults:' '  max_release_delay: 5'
try 'tasks:' '  - match: "py*"' '    max_release_delay_s: [1, 2]'
try 'tasks:' '  - max_leak_mib: 1'
try 'tasks:' '  match: "py*"'
try 'gpus:' '  max_unattributed_mib_at_end: 256 MiBs'
try 'gpus:' '  max_unattributed_mb_at_end: 256'
try 'baseline:' '  max_delay_regression: 25 percent'
try 'baseline:' '  max_leak_regression_mib: 1.5'
try 'baseline: 25%'
try 'defaults:' '  max_leak_mib: 0' '  max_leak_mib: 1'
try 'defaults:' ' max_leak_mib: 0' '  max_release_delay_s: 5'
try 'tasks: [{match: "py*", max_leak_mib: 1}'
rc=0; gpumem-check --config missing.yaml s.csv || rc=$?
echo "exit $rc"

# Flags.
rc=0; gpumem-check --max-leak lots s.csv || rc=$?
echo "exit $rc"
rc=0; gpumem-check --max-delay soon s.csv || rc=$?
echo "exit $rc"
rc=0; gpumem-check --junit - --json - s.csv || rc=$?
echo "exit $rc"
rc=0; gpumem-check --baseline - < t.csv || rc=$?
echo "exit $rc"

# Baselines.
rc=0; gpumem-check --baseline s.csv --junit r.xml s.csv || rc=$?
echo "exit $rc"
rc=0; gpumem-check --baseline nowhere.csv --junit r.xml s.csv || rc=$?
echo "exit $rc"
sed '3s/,released,/,gone,/' t.csv > damaged.csv
rc=0; gpumem-check --baseline damaged.csv --junit r.xml s.csv || rc=$?
echo "exit $rc"
! [ -e r.xml ] || die "a report was written"
exit 0
