# nvidia-smi writes local time: --tz, else TZ, says which zone.
printf 'timestamp, index, memory.used [MiB]\n2023/06/22 20:56:56.252, 0, 1 MiB\n' > q.csv
gpumem-read -q q.csv | tail -n 1
gpumem-read -q --tz Europe/Berlin q.csv | tail -n 1
TZ=America/New_York gpumem-read -q q.csv | tail -n 1
