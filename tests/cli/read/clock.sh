# Logs without a timestamp column: date(1) lines and Windows date /T and
# time /T lines are the clock; else --start and --interval; a block's row
# order gives the GPU.
cat > dated.log <<'LOG'
Tue Jun  9 09:00:01 UTC 2020
memory.total [MiB], memory.free [MiB], memory.used [MiB]
11019 MiB, 11019 MiB, 0 MiB
11019 MiB, 36 MiB, 10983 MiB
Tue Jun  9 09:30:01 UTC 2020
memory.total [MiB], memory.free [MiB], memory.used [MiB]
11019 MiB, 11000 MiB, 19 MiB
11019 MiB, 36 MiB, 10983 MiB
LOG
gpumem-read -q dated.log
printf '\r\nC:\\Users\\x>date /T \r\nTue 08/18/2020 \r\n\r\nC:\\Users\\x>time /T \r\n03:44 PM\r\n\r\nC:\\Users\\x>nvidia-smi --query-gpu=memory.total,memory.used --format=csv \r\nmemory.total [MiB], memory.used [MiB]\r\n11264 MiB, 215 MiB\r\n' > win.log
gpumem-read win.log
printf 'memory.used [MiB], memory.free [MiB]\n1 MiB, 2 MiB\n3 MiB, 4 MiB\nmemory.used [MiB], memory.free [MiB]\n5 MiB, 6 MiB\n7 MiB, 8 MiB\n' > bare.csv
rc=0; gpumem-read bare.csv || rc=$?; echo "exit $rc"
gpumem-read -q --start 2026-01-01T00:00:00Z --interval 100ms bare.csv
