# nvidia-smi lists only the processes present: a process that stops being
# listed gets one memory_used = 0 record at the first poll it is missing
# from.  pid 100 goes missing at the next poll (t=3); pid 200 at a poll
# that printed nothing (t=4, known from the device log); pid 400 at the
# last poll (t=9); pid 300, listed in the last compute-apps poll, ended
# too, since the device log goes on for 3 more polls (t=10).
{
	echo 'timestamp, index, uuid, memory.total [MiB], memory.used [MiB], memory.free [MiB]'
	for t in 00 01 02 03 04 05 06 07 08 09 10 11 12; do
		echo "2026/01/01 00:00:$t.000, 0, GPU-aaaa, 16384 MiB, 100 MiB, 16284 MiB"
		echo "2026/01/01 00:00:$t.000, 1, GPU-bbbb, 16384 MiB, 200 MiB, 16184 MiB"
	done
} > q.csv
cat > apps.csv <<'LOG'
timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]
2026/01/01 00:00:01.000, GPU-aaaa, 100, python3, 1000 MiB
2026/01/01 00:00:01.000, GPU-bbbb, 200, python3 train.py --lr 0.1, 2000 MiB
2026/01/01 00:00:02.000, GPU-aaaa, 100, python3, 1000 MiB
2026/01/01 00:00:02.000, GPU-bbbb, 200, python3 train.py --lr 0.1, 2000 MiB
2026/01/01 00:00:03.000, GPU-bbbb, 200, python3 train.py --lr 0.1, 2000 MiB
2026/01/01 00:00:07.000, GPU-aaaa, 300, ollama, 3000 MiB
2026/01/01 00:00:08.000, GPU-aaaa, 300, ollama, 3000 MiB
2026/01/01 00:00:08.000, GPU-bbbb, 400, worker, rank 1, 4000 MiB
2026/01/01 00:00:09.000, GPU-aaaa, 300, ollama, 3000 MiB
LOG
gpumem-read q.csv apps.csv
