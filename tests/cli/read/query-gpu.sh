# A query-gpu log: units, placeholders, reserved memory, rows of a poll in
# any GPU order, a repeated header, a BOM and CRLF line ends.
printf '\357\273\277timestamp, index, name, pci.bus_id, memory.total [MiB], memory.reserved [MiB], memory.used [MiB], memory.free [MiB]\r\n' > q.csv
cat >> q.csv <<'LOG'
2024/06/01 11:27:15.361, 1, NVIDIA A100-SXM4-40GB, 00000000:90:00.0, 40960 MiB, 479 MiB, 4 MiB, 40333 MiB
2024/06/01 11:27:15.315, 0, NVIDIA A100-SXM4-40GB, 00000000:3B:00.0, 40960 MiB, 479 MiB, 5 MiB, 40332 MiB
timestamp, index, name, pci.bus_id, memory.total [MiB], memory.reserved [MiB], memory.used [MiB], memory.free [MiB]
2024/06/01 11:27:16.315, 0, NVIDIA A100-SXM4-40GB, 00000000:3B:00.0, [N/A], 479 MiB, 5 MiB, 40332 MiB
2024/06/01 11:27:16.361, 1, NVIDIA A100-SXM4-40GB, 00000000:90:00.0, [N/A], [N/A], [Insufficient Permissions], 40333 MiB
LOG
gpumem-read q.csv
