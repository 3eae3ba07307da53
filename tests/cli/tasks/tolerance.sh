# --tolerance MIB and tolerance_mib (--config): how close memory must come
# back for a task to be released.  residue_stream (lib.sh): 100 MiB stay
# after train.py's 4096 MiB went, 3 s after its end.  Within 100 MiB or
# more: released after 3 s; within 99 or the default 64: 100 MiB leaked.
. "$TESTS/lib.sh"
residue_stream 100 > r.csv
for t in "" "--tolerance 99" "--tolerance 100"; do
	echo "# ${t:-default}"
	gpumem-tasks -q $t r.csv | cut -d, -f3,4,9-12
done
echo "tolerance_mib: 100" > c.yaml
echo "# --config c.yaml"
gpumem-tasks -q --config c.yaml r.csv | cut -d, -f3,4,9-12
echo "# --config c.yaml --tolerance 99: the option wins"
gpumem-tasks -q --config c.yaml --tolerance 99 r.csv | cut -d, -f3,4,9-12
# The same in the other tables.
gpumem-tasks -q -t json --tolerance 100 r.csv
gpumem-tasks -q -t text --utc --tolerance 99 r.csv
