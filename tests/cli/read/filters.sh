# --gpu, --pid, --since, --until: device samples stay with --pid.
gpumem-synth -s multi-gpu > m.csv
gpumem-read -q --gpu 5 m.csv | cut -d, -f3 | sort -u
gpumem-read -q --gpu 2-3 --pid 3003 m.csv | cut -d, -f3,4 | sort -u
gpumem-read -q --since 2026-01-01T00:00:10Z --until @1767225611 m.csv | cut -d, -f1 | sort -u
