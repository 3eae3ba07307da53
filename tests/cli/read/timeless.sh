# Logs without timestamps read with --fields and --interval: a poll ends
# where the GPU index (or UUID) comes again, and time advances by the
# interval per poll; a log with no GPU column is one GPU, one row a poll
# (said); a table followed by `nvidia-smi --query-gpu=... -l 10` output
# without a timestamp column goes on from the table's time by --interval.
. "$TESTS/lib.sh"
gpumem-synth -s demo -n nv
q=nv/query-gpu.csv
gpumem-read -q $q > want
# The fixture's rows without their timestamps, as -l 1 printed them.
tail -n +2 $q | cut -d, -f2- > rows.csv
fields=index,uuid,pci.bus_id,memory.total,memory.reserved,memory.used,memory.free
gpumem-read --format query-gpu --fields $fields --interval 1s \
    --start 2026-01-01T00:00:00Z rows.csv > got
cmp -s got want || die "rows.csv: records differ"
# By UUID when there is no index column.
cut -d, -f2- rows.csv > uuid.csv
gpumem-read -q --format query-gpu --fields ${fields#index,} --interval 1s \
    --start 2026-01-01T00:00:00Z uuid.csv > got
cmp -s got want || die "uuid.csv: records differ"
# GPU 0 alone, no GPU column: one row, one poll.
awk -F', ' '$1 == 0' rows.csv | cut -d, -f4- > one.csv
awk -F, 'NR == 1 || $3 == 0' want > want0
gpumem-read --format query-gpu --fields memory.total,memory.reserved,memory.used,memory.free \
    --interval 1s --start 2026-01-01T00:00:00Z one.csv > got
cmp -s got want0 || die "one.csv: records differ"

# A table, then a -l 10 CSV with a header and no timestamp column.
table2019_log | awk '/^Mon Jun  3 10:01/ { exit } { print }' > mixed.log
echo 'index, memory.used [MiB], memory.total [MiB]' >> mixed.log
for i in 1 2 3; do
	printf '0, %d MiB, 8116 MiB\n1, %d MiB, 8119 MiB\n' $((i * 100)) $((i * 200))
done >> mixed.log
gpumem-read --format query-gpu --interval 10s mixed.log
# Without --interval the polls after the first have no time: said.
rc=0; gpumem-read --format query-gpu mixed.log > /dev/null || rc=$?
expect_eq "mixed.log without --interval: exit" $rc 0
# 70 rows under one date line are 70 GPUs, as the log says, with a word.
{ TZ=UTC date -d @1767225600; head -n 70 one.csv; } > many.log
gpumem-read -q --format query-gpu --fields memory.total,memory.reserved,memory.used,memory.free many.log > got
gpumem-read --format query-gpu --fields memory.total,memory.reserved,memory.used,memory.free many.log 2>&1 >/dev/null | grep -v '^gpumem-read: many.log: 70 records'
