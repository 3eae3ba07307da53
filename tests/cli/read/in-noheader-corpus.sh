# A real header-less query-gpu log (the corpus's), read without --fields
# as the query NVIDIA documents (docs/log-formats.md) reads it, and with
# used before free.  Apart from in-noheader.sh, whose cases need no corpus
# and so run in a clone without it.
. "$TESTS/lib.sh"
need_corpus real/query-gpu-csv
f=$CORPUS/real/query-gpu-csv/omniopt2_4xa100_noheader_unsorted-gpus_i8037.csv
gpumem-read -q --fields timestamp,name,pci.bus_id,driver_version,pstate,pcie.link.gen.max,pcie.link.gen.current,temperature.gpu,utilization.gpu,utilization.memory,memory.total,memory.free,memory.used "$f" > want
gpumem-read -q "$f" > got
cmp -s got want || die "$f: records differ"
# The same with used before free (--query-gpu=...,memory.used,memory.free):
# an idle and a full GPU both show; used is the column nearer 0.
awk -F', ' -v OFS=', ' '{ t = $12; $12 = $13; $13 = t; print }' "$f" > swapped.csv
gpumem-read -q swapped.csv > got
cmp -s got want || die "swapped.csv: records differ"
