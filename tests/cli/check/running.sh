# A task the recorded command left running (a server fixture never shut
# down) fails by default: gpumem record's meta says when the command
# ended, --command-end says it for other inputs.  A task running since
# before the command started is not the command's; a configuration may
# allow a task to outlive the command.
#
# The recording is written here as gpumem record writes it: 1 s polls
# from 00:00:00 to 00:00:29; the command ran from 00:00:01 to 00:00:10.
# pid 100 (a daemon) holds 500 MiB all along; pid 5000 (a test) 1024 MiB
# from 00:00:02 to 00:00:08; pid 4242 (the server it started) 2048 MiB
# from 00:00:05 to the end.
. "$TESTS/lib.sh"
uuid=GPU-5a1e0000-0000-4000-8000-000000000000
bus=00000000:17:00.0
mkdir run
awk -v uuid=$uuid -v bus=$bus 'BEGIN {
	print "timestamp, index, uuid, pci.bus_id, memory.total [MiB], memory.used [MiB], memory.free [MiB]" > "run/query-gpu.csv"
	print "timestamp, gpu_uuid, gpu_bus_id, pid, process_name, used_gpu_memory [MiB]" > "run/compute-apps.csv"
	for (t = 0; t < 30; t++) {
		ts = sprintf("2026/01/01 00:00:%02d.000", t)
		used = 300 + 500
		printf "%s, %s, %s, 100, mps-daemon, 500 MiB\n", ts, uuid, bus > "run/compute-apps.csv"
		if (t >= 2 && t <= 8) {
			used += 1024
			printf "%s, %s, %s, 5000, python3 test_a.py, 1024 MiB\n", ts, uuid, bus > "run/compute-apps.csv"
		}
		if (t >= 5) {
			used += 2048
			printf "%s, %s, %s, 4242, python3 serve.py, 2048 MiB\n", ts, uuid, bus > "run/compute-apps.csv"
		}
		printf "%s, 0, %s, %s, 16384 MiB, %d MiB, %d MiB\n", ts, uuid, bus, used, 16384 - used > "run/query-gpu.csv"
	}
}'
start=$(date -u -d '2026-01-01 00:00:01' +%s)000000000
end=$(date -u -d '2026-01-01 00:00:10' +%s)000000000
cat > run/meta <<META
# gpumem record: what ran while the logs beside this file were written
command: pytest tests/gpu
start: 2026-01-01T00:00:01.000Z
end: 2026-01-01T00:00:10.000Z
exit: status 0
host: runner-7
interval_ms: 1000
start_ns: $start
end_ns: $end
META
run() {
	echo "# $*" >&2
	gpumem-check "$@" && rc=0 || rc=$?
	echo "$*: exit $rc"
}
# The server outlived the command: a failure.  The daemon was there
# before the command started: not judged.
run run
gpumem-check --json - run 2> /dev/null | grep -E '"command_|"gate": "allow_running_after_command"' |
    sed 's/^ *//; s/, "max_delay.*//; s/.*"command_start"/"command_start"/'
# The meta of an earlier gpumem record (no start_ns, end_ns): the same.
mkdir old
cp run/*.csv old/
grep -v '_ns:' run/meta > old/meta
run old
# A meta that does not say when the command ended: nothing to judge by.
mkdir noend
cp run/*.csv noend/
grep -v '^end' run/meta > noend/meta
run noend
# A meta that does not read is trouble.
mkdir bad
cp run/*.csv bad/
sed 's/^end_ns: .*/end_ns: soon/' run/meta > bad/meta
run bad
# Standard input is not a recording, even where a directory named "-"
# holds a meta: the stream reads standard input, so no meta is read.
mkdir ./-
cp bad/meta ./-/meta
gpumem-read -q run | run -
# --command-end for the logs alone: no start is known, so the daemon is
# judged too.
run --command-end 2026-01-01T00:00:10Z run/query-gpu.csv run/compute-apps.csv
# --command-end overrides the meta: a command that ended 31 s after the
# last sample (00:00:29) ended after the recording did: the recorder
# stopped, said as such (trouble: what ran after it is unknown), and
# nothing is judged as left running.  Two intervals after it (2 s) is
# still the recording's end (gpumem record --after 0 stops its loggers
# with the command); 3 s is not.
run --command-end @1767225660 run
run --command-end @1767225631 run
run --command-end @1767225632 run
# A task table knows it as well.
gpumem-tasks -q run > tasks.csv
run --command-end 2026-01-01T00:00:10Z tasks.csv
# The configuration allows it: for every task, or by name.
printf 'defaults:\n  allow_running_after_command: true\n' > all.yaml
run --config all.yaml run
printf 'tasks:\n  - match: "*serve.py"\n    allow_running_after_command: yes\n' > serve.yaml
run --config serve.yaml --command-end 2026-01-01T00:00:10Z run/query-gpu.csv run/compute-apps.csv
printf 'defaults:\n  allow_running_after_command: maybe\n' > maybe.yaml
run --config maybe.yaml run
run --command-end soon run
