# The gate's defaults for CI (docs/ci.md): memory left at the end of a
# recording is judged without a configuration, whether or not a process
# log says who held it; nothing judged is trouble (exit 2), not a pass.
# The logs are written here as nvidia-smi writes them: 1 s polls from
# 00:00:00, 300 MiB reserved by the driver when idle, a job holding
# 11 GiB (11264 MiB) from 00:00:05 to 00:00:20.
. "$TESTS/lib.sh"
uuid=GPU-5a1e0000-0000-4000-8000-000000000000
bus=00000000:17:00.0
# gpu FILE LEFT: the query-gpu log; LEFT MiB stay in use after 00:00:20.
gpu() {
	awk -v uuid=$uuid -v bus=$bus -v left="$2" 'BEGIN {
		print "timestamp, index, uuid, pci.bus_id, memory.total [MiB], memory.used [MiB], memory.free [MiB]"
		for (t = 0; t < 30; t++) {
			used = 300
			if (t >= 5 && t <= 20)
				used += 11264
			else if (t > 20)
				used += left
			printf "2026/01/01 00:00:%02d.000, 0, %s, %s, 16384 MiB, %d MiB, %d MiB\n",
			    t, uuid, bus, used, 16384 - used
		}
	}' > "$1"
}
# apps FILE: the compute-apps log of the same run: pid 4242 from 00:00:05
# to 00:00:20.
apps() {
	awk -v uuid=$uuid -v bus=$bus 'BEGIN {
		print "timestamp, gpu_uuid, gpu_bus_id, pid, process_name, used_gpu_memory [MiB]"
		for (t = 5; t <= 20; t++)
			printf "2026/01/01 00:00:%02d.000, %s, %s, 4242, python3 serve.py, 11264 MiB\n",
			    t, uuid, bus
	}' > "$1"
}
run() {
	echo "# $*" >&2
	gpumem-check "$@" && rc=0 || rc=$?
	echo "$*: exit $rc"
}
gpu leaky.csv 11264
gpu clean.csv 0
apps apps.csv
# The compute-apps log of a container that cannot see the host's pids:
# its header, and not one process.
head -n 1 apps.csv > no-apps.csv

# A device-only log with 11 GiB left at the end: no configuration, no
# process, and still a failure.
run leaky.csv
# The same log with the memory back at the end passes.
run clean.csv
# An empty process log changes nothing: the memory left is judged.
run leaky.csv no-apps.csv
run clean.csv no-apps.csv
# With the process log, the 11 GiB are the leak of pid 4242, which
# max_leak_mib judges; the default rule takes that leak off and passes
# (one failure for one leak).
run leaky.csv apps.csv
gpumem-check --json - leaky.csv apps.csv 2> /dev/null |
    grep -o '"message": "[^"]*unaccounted for[^"]*"' || :
run clean.csv apps.csv
# The idle baseline of the configuration wins over the first sample, and
# a configured limit replaces the built-in one (and counts every MiB
# left, leaks included); a lax one still leaves the device-only log's
# episode, a leak of 11264 MiB, to max_leak_mib, as pid 4242's would be
# with the process log: one judgement whatever the log holds.
printf 'devices:\n  - gpu: 0\n    idle_mib: 0\n' > idle0.yaml
run --config idle0.yaml clean.csv
printf 'gpus:\n  max_unattributed_mib_at_end: 20000\n' > lax.yaml
run --config lax.yaml leaky.csv
# The tolerance is the built-in limit: 11264 MiB pass under a tolerance
# of 11264, not under 11263.
run --tolerance 11264 leaky.csv
run --tolerance 11263 leaky.csv

# Nothing judged: a task table (no device samples) whose only task was
# still running.  Exit 2, with the hint.
printf '%s\n' 'host,gpu,process_id,name,start,end,peak_mib,held_mib,release,release_delay_s,leaked_mib,status' \
    ',0,4242,python3 serve.py,1767225605000000000,1767225629000000000,11264,11264,,,,running' > running.csv
run running.csv
gpumem-check --junit r.xml --json r.json --markdown r.md running.csv 2> /dev/null &&
    rc=0 || rc=$?
echo "reports: exit $rc"
grep -c '<error message="nothing judged: give --tasks FILE (the jobs of a device-only log) or a log with processes" type="input"' r.xml
grep -c '"verdict": "trouble"' r.json
head -n 1 r.md
