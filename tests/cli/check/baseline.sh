# Against the task table of an earlier run: delays that grew beyond the
# allowance, new leaks, leaks that grew, vanished and appeared tasks (a
# renamed task is one of each); tasks match by GPU, name and order, not
# by pid, and a baseline from another host matches.
. "$TESTS/lib.sh"
run() {
	echo "# $*" >&2
	rc=0; gpumem-check "$@" || rc=$?
	echo "$*: exit $rc"
}
gpumem-synth -s slow-release > slow.csv
gpumem-tasks -q slow.csv > slow-tasks.csv
# Itself: nothing changed.
run --baseline slow-tasks.csv slow.csv
# pid 2002's 45 s: 22 s before (it doubled), 40 s (+12%).
sed 's/,1767225695000000000,45,/,1767225672000000000,22,/' slow-tasks.csv > doubled.csv
sed 's/,1767225695000000000,45,/,1767225690000000000,40,/' slow-tasks.csv > within.csv
run --baseline doubled.csv slow.csv
run --baseline within.csv slow.csv
# The allowance is configurable: 150% lets the doubling pass, 10%
# fails the +12%.
printf 'baseline:\n  max_delay_regression: 150%%\n' > lax.yaml
printf 'baseline:\n  max_delay_regression: 10%%\n' > strict.yaml
run --config lax.yaml --baseline doubled.csv slow.csv
run --config strict.yaml --baseline within.csv slow.csv
# Growth within one sampling interval is never a regression (a delay is
# known to within one), so a baseline of 0 s allows 1 s here: pid 2001's
# 3 s against 0 s fails; against 2 s it passes (2 s + 25% is less than
# 3 s, but 2 s + 1 s is not).
sed 's/,1767225623000000000,3,/,1767225620000000000,0,/' slow-tasks.csv > zero.csv
run --baseline zero.csv slow.csv
sed 's/,1767225623000000000,3,/,1767225621000000000,2,/' slow-tasks.csv > two.csv
run --baseline two.csv slow.csv
# Matched by name and order, not by pid: new pids, same tasks.
sed 's/,2001,/,9001,/; s/,2002,/,9002,/; s/,2003,/,9003,/' slow-tasks.csv > pids.csv
run --baseline pids.csv slow.csv
# Another host (a CI runner with another name): still matched.
sed 's/^,0,/runner-7,0,/' slow-tasks.csv > host.csv
run --baseline host.csv slow.csv
# A renamed task: one vanished, one appeared; neither fails.
sed 's/,torchrun,/,deepspeed,/' slow-tasks.csv > renamed.csv
run --baseline renamed.csv slow.csv
# A task of the baseline that did not run: vanished.
grep -v ',torchrun,' slow-tasks.csv > fewer.csv
run --baseline fewer.csv slow.csv

# Leaks.  The leak scenario against a baseline where the leaking task
# released its memory: a new leak, even when max_leak_mib allows it.
gpumem-synth -s leak > leak.csv
gpumem-tasks -q leak.csv > leak-tasks.csv
sed 's/,1767225660000000000,11264,11264,,,11264,leaked,,,$/,1767225660000000000,11264,11264,1767225662000000000,2,0,released,1.000,2.000,/' leak-tasks.csv > noleak.csv
! cmp -s noleak.csv leak-tasks.csv || die "the baseline was not edited"
run --max-leak 20000 --baseline noleak.csv leak.csv
# The same leak in the baseline: not new.
run --max-leak 20000 --baseline leak-tasks.csv leak.csv
# A leak that grew: 11264 MiB now, 10000 then; 128 MiB allowed, then 2000.
sed 's/,,,11264,leaked,,,$/,,,10000,leaked,,,/' leak-tasks.csv > smaller.csv
printf 'baseline:\n  max_leak_regression_mib: 128\n' > leak128.yaml
printf 'baseline:\n  max_leak_regression_mib: 2000\n' > leak2000.yaml
run --max-leak 20000 --config leak128.yaml --baseline smaller.csv leak.csv
run --max-leak 20000 --config leak2000.yaml --baseline smaller.csv leak.csv
# A leaking task that is not in the baseline at all: new as well.
grep -v 'launch.py' leak-tasks.csv > without.csv
run --max-leak 20000 --baseline without.csv leak.csv
