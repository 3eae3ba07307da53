# A log cut while nvidia-smi -l kept appending: `: > log` truncates it,
# the writer goes on at its offset, the file starts with a run of NUL
# bytes up to there.  The text after the NUL bytes is read (and counted),
# from a run at the start of the file, larger than the first 64 KiB looked
# at for the format and than the longest line, and from one before a line
# in the middle (a block lost in a crash); a line of NUL bytes only is
# passed over; a NUL byte alone in a line is still damage.
. "$TESTS/lib.sh"
gpumem-synth -s demo -n nv
q=nv/query-gpu.csv
fields=timestamp,index,uuid,pci.bus_id,memory.total,memory.reserved,memory.used,memory.free
tail -n +102 $q > rest.csv
gpumem-read -q --fields $fields rest.csv > rest.want

# The writer's descriptor stays open across the truncation, as
# nvidia-smi's does under `nvidia-smi ... -l 1 > log &`.
exec 3> cut.csv
head -n 101 $q >&3
: > cut.csv
tail -n +102 $q >&3
exec 3>&-
head -c 1 cut.csv | od -An -tx1 | grep -q 00 || die "no NUL bytes at the start"
gpumem-read --fields $fields cut.csv > got
cmp -s got rest.want || die "cut.csv: records differ"

# A hole of 2 MiB (a log that had grown before it was cut).
exec 3> big.csv
head -c 2097152 /dev/zero >&3
: > big.csv
tail -n +102 $q >&3
exec 3>&-
gpumem-read -q --fields $fields big.csv > got
cmp -s got rest.want || die "big.csv: records differ"

# Blocks of NUL bytes in the middle: a line of them only, one before a
# whole line, one after the start of a line the crash cut (that start is
# lost); a NUL byte alone inside a line.
{ head -n 101 $q; head -c 4096 /dev/zero; echo; head -c 100 /dev/zero
  tail -n +102 $q | head -n 5; printf '2026/01/01 00:0'; head -c 64 /dev/zero
  tail -n +107 $q | head -n 5; printf '2026/01/01 00:01:00.000, 0\000, x\n'
  tail -n +112 $q; } > mid.csv
rc=0; gpumem-read mid.csv > got || rc=$?
expect_eq "mid.csv exit" $rc 0
gpumem-read -q $q > q.want
cmp -s got q.want || die "mid.csv: records differ"
