# Rows that go back in time are put in order within the reorder window;
# a row that falls outside it is named, skipped and counted.
cat > q.csv <<'LOG'
timestamp, index, memory.used [MiB]
2026/01/01 00:00:02.000, 0, 2 MiB
2026/01/01 00:00:01.000, 0, 1 MiB
2026/01/01 00:00:03.000, 0, 3 MiB
2026/01/01 00:00:04.000, 0, 4 MiB
2026/01/01 00:00:05.000, 0, 5 MiB
2026/01/01 00:00:02.500, 0, 25 MiB
2026/01/01 00:00:06.000, 0, 6 MiB
LOG
gpumem-read -q q.csv | cut -d, -f1,5
gpumem-read --window 2 q.csv | cut -d, -f1,5
# --window 1, the fast path for an input known to be in order: nothing is
# held back, so each row out of order is named, skipped and counted, and
# an input in order reads the same as through the window.
gpumem-read --window 1 q.csv | cut -d, -f1,5
gpumem-synth -s random --seed 3 --gpus 2 --interval 1s --duration 2m \
    -o inorder.csv
gpumem-read -q inorder.csv > held.csv
gpumem-read -q --window 1 inorder.csv > fast.csv
cmp held.csv fast.csv
wc -l < fast.csv
