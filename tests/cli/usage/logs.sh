# Device-only logs: attributed is 0; without memory.free the usage is
# memory.used, and a configured total stands in for a missing one.
printf 'timestamp, index, memory.used [MiB], memory.free [MiB], memory.total [MiB]\n2026/01/01 00:00:01.000, 0, 841 MiB, 7140 MiB, 8192 MiB\n' > full.csv
printf 'timestamp, index, memory.used [MiB], memory.total [MiB]\n2026/01/01 00:00:01.000, 0, 472 MiB, 32768 MiB\n' > nofree.csv
printf 'timestamp, index, memory.free [MiB]\n2026/01/01 00:00:01.000, 0, 1000 MiB\n2026/01/01 00:00:01.000, 1, 1000 MiB\n' > freeonly.csv
printf 'devices:\n  - gpu: 1\n    memory_total_mib: 4096\n' > c.yaml
gpumem-usage full.csv nofree.csv | tail -n +2
gpumem-usage --config c.yaml freeonly.csv | tail -n +2
