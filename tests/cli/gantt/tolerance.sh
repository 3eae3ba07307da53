# gantt --tolerance MIB: residue_stream (lib.sh) leaves 100 MiB after
# train.py: leaked within the default 64 MiB, released after 3 s within
# 100.
. "$TESTS/lib.sh"
residue_stream 100 > r.csv
gpumem-gantt --text r.csv
gpumem-gantt --text --tolerance 100 r.csv
