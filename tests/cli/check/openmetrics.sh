# check --openmetrics FILE: the gauges of tasks -t openmetrics (the same
# names and values, task by task), then the unattributed memory at each
# GPU's last sample, the checks by result and whether the run passed;
# promtool accepts it.
. "$TESTS/lib.sh"
gpumem-synth -s multi-gpu > multi.csv
rc=0; gpumem-check -q --openmetrics om.txt --json c.json multi.csv 2> /dev/null ||
	rc=$?
echo "exit $rc"
if command -v promtool > /dev/null; then
	promtool check metrics < om.txt || die "promtool: om.txt"
fi
# The tasks' families: what tasks -t openmetrics writes (in its order).
gpumem-tasks -q -t openmetrics multi.csv | grep -v '^# EOF' | sort > want
sed -n '/^# HELP gpumem_unattributed/q;p' om.txt | sort > got
cmp -s want got || die "task families: $(diff want got)"
# The rest, as it is: per GPU, the memory no process owned at the end, as
# usage's last row of that GPU says it (MiB), in bytes.
sed -n '/^# HELP gpumem_unattributed/,$p' om.txt
gpumem-usage -q multi.csv | awk -F , 'NR > 1 { u[$3] = $8 }
    END { for (g in u) printf "%s %.0f\n", g, u[g] * 1048576 }' | sort > want
sed -n 's/^gpumem_unattributed_bytes_at_end{host="",gpu="\([0-9]*\)"} /\1 /p' \
    om.txt | sort > got
cmp -s want got || die "unattributed: $(diff want got)"
# The counts are the JSON's.
if command -v jq > /dev/null; then
	for r in passed failed skipped errors; do
		n=$(jq ".checks.$r" c.json)
		l=$(echo $r | sed 's/passed/pass/; s/failed/fail/; s/errors/error/')
		grep -q "^gpumem_check_checks{result=\"$l\"} $n\$" om.txt ||
			die "$r: not $n"
	done
fi
# A run that passes says 1; - is standard output.
gpumem-synth -s clean | gpumem-check -q --openmetrics - 2> /dev/null |
	grep '^gpumem_check_passed'
