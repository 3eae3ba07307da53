# A pid reused within a few polls after its memory came back: the polls
# in between printed nothing (compute-apps prints nothing for an idle
# GPU), so the reader sees the pid listed before and after; the device,
# back at its idle level in between, says the first process was gone.
# Two tasks, not one.  Logs written as nvidia-smi -l 1 writes them: job.py
# (pid 100) holds 2048 MiB from 10 s to 20 s and gives it back at once; a
# new job.py under pid 100 holds 1024 MiB from 23 s to 30 s and leaves
# 512 MiB.  Before, one task leaked 512 MiB and the release at 21 s was
# lost.
. "$TESTS/lib.sh"
uuid=GPU-5a1e0000-0000-4000-8000-000000000000
bus=00000000:17:00.0
awk -v uuid=$uuid -v bus=$bus 'BEGIN {
	print "timestamp, index, uuid, pci.bus_id, memory.total [MiB], memory.used [MiB], memory.free [MiB]"
	for (s = 0; s < 50; s++) {
		used = 300 + (s >= 10 && s <= 20 ? 2048 : 0) + (s >= 23 && s <= 30 ? 1024 : 0) + (s > 30 ? 512 : 0)
		printf "2026/01/01 00:00:%02d.000, 0, %s, %s, 16384 MiB, %d MiB, %d MiB\n",
		    s, uuid, bus, used, 16384 - used
	}
}' > query-gpu.csv
awk -v uuid=$uuid -v bus=$bus 'BEGIN {
	print "timestamp, gpu_uuid, gpu_bus_id, pid, process_name, used_gpu_memory [MiB]"
	for (s = 0; s < 50; s++) {
		if (s >= 10 && s <= 20)
			printf "2026/01/01 00:00:%02d.300, %s, %s, 100, job.py, 2048 MiB\n", s, uuid, bus
		if (s >= 23 && s <= 30)
			printf "2026/01/01 00:00:%02d.300, %s, %s, 100, job.py, 1024 MiB\n", s, uuid, bus
	}
}' > compute-apps.csv
gpumem-tasks -q query-gpu.csv compute-apps.csv | cut -d, -f3,5,6,8,9,11,12,13,14,15
