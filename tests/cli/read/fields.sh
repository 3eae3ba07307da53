# A log without a header: --fields names its columns; without it, they
# are told from the values (in-noheader.sh has the rules).
cat > q.csv <<'LOG'
2024/06/01 11:27:05.177, NVIDIA A100-SXM4-40GB, 00000000:3B:00.0, 40960 MiB, 40333 MiB, 4 MiB
2024/06/01 11:27:05.188, NVIDIA A100-SXM4-40GB, 00000000:8B:00.0, 40960 MiB, 40333 MiB, 4 MiB
2024/06/01 11:27:05.192, NVIDIA A100-SXM4-40GB, 00000000:0B:00.0, 40960 MiB, 1534 MiB, 38803 MiB
LOG
rc=0; gpumem-read q.csv || rc=$?; echo "exit $rc"
gpumem-read --fields timestamp,name,pci.bus_id,memory.total,memory.free,memory.used q.csv
