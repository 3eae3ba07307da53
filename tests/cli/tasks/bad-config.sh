# Bad configuration: the file, the line and the key are named; exit 2.
. "$TESTS/lib.sh"
gpumem-synth -s clean > s.csv
try() {
	printf '%s\n' "$@" > c.yaml
	rc=0; gpumem-tasks -q --config c.yaml s.csv > /dev/null || rc=$?
	echo "exit $rc"
}
try 'tolerance_mib: lots'
try 'tolerence_mib: 64'
try 'defaults:' '  max_leak_mib: 0' '  max_release_delay: 5'
try 'defaults:' '  max_release_delay_s: soon'
try 'tasks:' '  - max_leak_mib: 1'
try 'tasks:' '  - match: "py*"' '    pid: 7'
try 'devices:' '  - memory_total_mib: 100'
try 'baseline:' '  max_delay_regression: a lot'
try 'names: [1, 2'
try 'tolerance_mib: 1' 'tolerance_mib: 2'
try '- a' '- b'
try 'x: &a 1' 'y: *a'
rc=0; gpumem-tasks -q --config missing.yaml s.csv > /dev/null || rc=$?
echo "exit $rc"
