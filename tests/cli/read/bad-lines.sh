# Unreadable lines are named by file and line (the first 10), skipped, and
# counted; the rest is read and the exit status stays 0.
{
	echo 'timestamp, index, memory.used [MiB], memory.free [MiB]'
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		echo "2026/01/01 00:00:$((10 + i)).000, 0, ${i}x MiB, 100 MiB"
		echo "2026/01/01 00:00:$((10 + i)).500, 0, $i MiB, 100 MiB"
	done
	echo '2026/01/01 00:01:00.000, 0, 5 MiB'
	echo 'garbage'
	echo '2026/13/01 00:01:00.000, 0, 5 MiB, 1 MiB'
} > q.csv
gpumem-read q.csv | wc -l
