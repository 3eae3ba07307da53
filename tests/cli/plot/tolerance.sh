# plot --tolerance MIB: residue_stream (lib.sh) leaves 100 MiB after
# train.py: the chart marks a leak within the default 64 MiB, a release
# after 3 s within 100 (the script's titles, the list of its marks).
. "$TESTS/lib.sh"
residue_stream 100 > r.csv
for t in "" "--tolerance 100"; do
	echo "# ${t:-default}"
	gpumem-plot --script $t r.csv 2> list.txt | grep "^set title"
	cat list.txt
done
