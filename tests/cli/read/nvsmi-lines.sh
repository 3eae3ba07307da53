# Lines of nvidia-smi CSV logs that are not rows, written as a loop that
# logs with >> leaves them: a comment, nvidia-smi's own error messages
# (skipped and counted), a row cut short (named by its line); and a
# compute-apps log without a GPU column, whose processes are all on GPU 0
# (said once), with a row whose pid is not a number.
. "$TESTS/lib.sh"
{
	echo 'timestamp, index, memory.used [MiB], memory.total [MiB]'
	echo '2026/01/01 00:00:00.000, 0, 100 MiB, 16384 MiB'
	echo '# driver reloaded'
	echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
	echo 'No devices were found'
	echo 'Failed to initialize NVML: Driver/library version mismatch'
	echo '2026/01/01 00:00:01.000, 0, 200 MiB'
	echo '2026/01/01 00:00:02.000, 0, 300 MiB, 16384 MiB'
} > q.csv
gpumem-read q.csv
{
	echo 'timestamp, pid, process_name, used_gpu_memory [MiB]'
	echo '2026/01/01 00:00:00.000, 4242, python3, 1024 MiB'
	echo '2026/01/01 00:00:01.000, abc, python3, 1024 MiB'
	echo '2026/01/01 00:00:02.000, 4242, python3, 2048 MiB'
} > a.csv
gpumem-read a.csv
