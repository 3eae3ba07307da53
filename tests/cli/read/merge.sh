# Several inputs are merged in time order; ties go to the earlier input.
printf 'timestamp, index, memory.used [MiB]\n2026/01/01 00:00:01.000, 0, 1 MiB\n2026/01/01 00:00:03.000, 0, 3 MiB\n' > a.csv
printf 'timestamp, index, memory.used [MiB]\n2026/01/01 00:00:00.500, 1, 10 MiB\n2026/01/01 00:00:03.000, 1, 30 MiB\n2026/01/01 00:00:04.000, 1, 40 MiB\n' > b.csv
gpumem-read -q b.csv a.csv
# Output joined with cat (a second header mid-stream) stays readable; the
# second copy is 3.5 s back, less than two intervals: merged in by the
# reorder window, where it repeats the first (duplicates).
gpumem-read -q a.csv b.csv > ab.csv
cat ab.csv ab.csv | gpumem-read | tail -n +2 | wc -l
