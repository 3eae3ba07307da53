# check --openmetrics FILE: per GPU and per run, never per task (a series
# per task, labelled with its pid and start, is a new series for every
# task of every run: Prometheus keeps them all).  Per GPU the tasks by
# status, the leaked bytes and a histogram of the release delays, all
# computed here with awk from the task table of gpumem tasks; then the
# unattributed memory at each GPU's last sample (usage's last row), the
# checks by result (the JSON's) and whether the run passed; no pid, start
# or name label; as many series for a run of many tasks as for one of
# few; promtool accepts it, naming included.
. "$TESTS/lib.sh"
gpumem-synth -s multi-gpu > multi.csv
rc=0; gpumem-check -q --openmetrics om.txt --json c.json multi.csv 2> /dev/null ||
	rc=$?
echo "exit $rc"
if command -v promtool > /dev/null; then
	promtool check metrics < om.txt || die "promtool: om.txt"
fi
n=$(grep -c -e 'pid=' -e 'start_ns=' -e 'name=' om.txt || :)
expect_eq "series labelled per task" "$n" 0
# tasks_want CSV: the per-GPU families, from a task table.
tasks_want() {
	awk -F , 'NR > 1 {
		g = $2; gpus[g] = 1; n[g, $12]++
		if ($12 == "leaked") leak[g] += $11 * 1048576
		if ($12 == "released") {
			cnt[g]++; sum[g] += $10
			for (k = 1; k <= nle; k++)
				if ($10 + 0 <= le[k] + 0) b[g, k]++
		}
	}
	BEGIN { nle = split("0.5 1 2 5 10 30 60 300", le, " ") }
	END {
		for (g in gpus) {
			l = "{host=\"\",gpu=\"" g "\""
			split("released leaked running", st, " ")
			for (s = 1; s <= 3; s++)
				printf "gpumem_tasks%s,status=\"%s\"} %d\n", l, st[s], n[g, st[s]]
			printf "gpumem_leaked_bytes%s} %.0f\n", l, leak[g]
			for (k = 1; k <= nle; k++)
				printf "gpumem_release_delay_seconds_bucket%s,le=\"%s\"} %d\n", l, le[k], b[g, k]
			printf "gpumem_release_delay_seconds_bucket%s,le=\"+Inf\"} %d\n", l, cnt[g]
			printf "gpumem_release_delay_seconds_sum%s} %.9g\n", l, sum[g]
			printf "gpumem_release_delay_seconds_count%s} %d\n", l, cnt[g]
		}
	}' "$1" | sort
}
gpumem-tasks -q multi.csv > tasks.csv
tasks_want tasks.csv > want
grep -e '^gpumem_tasks{' -e '^gpumem_leaked_bytes{' \
    -e '^gpumem_release_delay_seconds_' om.txt | sort > got
cmp -s want got || die "per GPU: $(diff want got)"
# The families, in order, with their types.
grep '^# TYPE' om.txt
# Per GPU, the memory no process owned at the end, as usage's last row of
# that GPU says it (MiB), in bytes.
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
grep '^gpumem_check_passed' om.txt
tail -n 1 om.txt
# The same GPUs with ten times the tasks (the run again, ten times, an
# hour apart): the same series, other values.
awk -F , -v OFS=, 'NR == 1 { print; next } { l[n++] = $0 }
    END { for (r = 0; r < 10; r++) for (i = 0; i < n; i++) {
	split(l[i], f, ","); f[1] += r * 3600e9; $0 = l[i]; $1 = sprintf("%.0f", f[1]); print } }' \
    multi.csv > ten.csv
gpumem-check -q --openmetrics om10.txt ten.csv 2> /dev/null || :
expect_eq "tasks, ten runs" "$(gpumem-tasks -q ten.csv | tail -n +2 | wc -l)" \
    $((10 * $(tail -n +2 tasks.csv | wc -l)))
sed 's/} .*/}/' om.txt > series
sed 's/} .*/}/' om10.txt > series10
cmp -s series series10 || die "series of ten runs: $(diff series series10)"
# A run that passes says 1; - is standard output.
gpumem-synth -s clean | gpumem-check -q --openmetrics - 2> /dev/null |
	grep '^gpumem_check_passed'
