# Sizes with units in the configuration (max_leak: 1GiB, 512 MiB, 1.5GB):
# the leak scenario leaks 11 GiB (11264 MiB); the gate passes at that
# size however it is written and fails just below it.  An unknown unit is
# refused with file:line; so is a size given under both names.
. "$TESTS/lib.sh"
gpumem-synth -s leak > s.csv
# try LINE...: the configuration of these lines, and check's exit.
try() {
	printf '%s\n' "$@" > c.yaml
	if gpumem-check -q --config c.yaml s.csv > /dev/null; then
		echo "$* -> exit 0"
	else
		echo "$* -> exit $?"
	fi
}
# 11264 MiB = 11 GiB = 11534336 KiB = 11811160064 B = 11.811160064 GB.
try 'defaults:' '  max_leak: 11GiB'
try 'defaults:' '  max_leak: 11 GiB'
try 'defaults:' '  max_leak: 11534336 KiB'
try 'defaults:' '  max_leak: 11811160064 B'
try 'defaults:' '  max_leak: 11.82GB'
try 'defaults:' '  max_leak_mib: 11264'
try 'defaults:' '  max_leak_mib: 11 GiB'
try 'tasks:' '  - match: "python3*"' '    max_leak: 11 gib'
# Just below.
try 'defaults:' '  max_leak: 11263 MiB'
try 'defaults:' '  max_leak: 11.81GB'
try 'defaults:' '  max_leak: 10.99GiB'
# The message names the size in MiB, and the line.
printf 'defaults:\n  max_leak: 1GiB\n' > c.yaml
gpumem-check --config c.yaml s.csv 2>&1 | head -n 1 || :
# Refused.
try 'defaults:' '  max_leak: 11 GiBs'
try 'gpus:' '  max_unattributed_at_end: 256 MB/s'
try 'defaults:' '  max_leak: 1.5'
try 'defaults:' '  max_leak: 1GiB' '  max_leak_mib: 1024'
try 'devices:' '  - gpu: 0' '    idle: 300 mb' '    memory_total: 24 GiB' \
    'tolerance: 0.0625 GiB' 'baseline:' '  max_leak_regression: 128MiB'
