# --strict: the first unreadable line is fatal (exit 2).
printf 'timestamp, index, memory.used [MiB]\n2026/01/01 00:00:01.000, 0, 1 MiB\n2026/01/01 00:00:02.000, 0, x\n2026/01/01 00:00:03.000, 0, 3 MiB\n' > q.csv
gpumem-read --strict q.csv
