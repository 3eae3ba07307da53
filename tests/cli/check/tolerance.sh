# check --tolerance MIB: residue_stream (lib.sh) leaves 100 MiB after
# train.py: a leak (exit 1) within the default 64 MiB or 99, released
# (exit 0) within 100.
. "$TESTS/lib.sh"
residue_stream 100 > r.csv
for t in "" "--tolerance 99" "--tolerance 100"; do
	echo "# ${t:-default}" >&2
	rc=0
	gpumem-check $t r.csv || rc=$?
	echo "${t:-default}: exit $rc"
done
