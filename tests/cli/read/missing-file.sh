# An input that cannot be opened: one line, the others are still read, and
# the exit status is 2 at the end.
printf 'timestamp, index, memory.used [MiB]\n2026/01/01 00:00:01.000, 0, 1 MiB\n' > q.csv
gpumem-read nonexistent.csv q.csv
