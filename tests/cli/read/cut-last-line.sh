# A log cut by a crash or a full disk ends inside its last line, often
# inside a number ("10240 MiB" cut to "10").  A last line without a line
# end whose last value is memory is read only when that value is whole
# (its unit, or a placeholder); else it is named (FILE:LINE) and skipped.
# The logs are written as nvidia-smi writes them and cut with head -c.
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "timestamp, index, memory.used [MiB], memory.free [MiB]"
	for (i = 1; i <= 3; i++)
		printf "2026/01/01 00:00:%02d.000, 0, %d MiB, 10240 MiB\n", i, 1000 * i
}' > q.csv
echo "query-gpu, cut 1 to 8 bytes before the end:"
for k in 1 2 3 4 5 6 7 8; do
	head -c -$k q.csv > cut.csv
	gpumem-read cut.csv 2>&1 >/dev/null | sed 's/ (nvidia-smi .*;/;/'
done
echo "compute-apps, cut inside the number:"
awk 'BEGIN {
	print "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]"
	printf "2026/01/01 00:00:01.000, GPU-1, 41, python, 10240 MiB\n"
	printf "2026/01/01 00:00:01.000, GPU-1, 42, python, 10240 MiB\n"
}' > a.csv
head -c -9 a.csv > acut.csv
gpumem-read acut.csv
rc=0; gpumem-read --strict acut.csv > /dev/null 2>&1 || rc=$?
echo "strict: exit $rc"
echo "without units: the last number cannot show a cut"
sed 's/ MiB//g' q.csv | head -c -1 > nounits.csv
gpumem-read nounits.csv | tail -n 1
echo "without units, memory not last: a cut cannot reach it"
awk 'BEGIN {
	print "index, memory.used [MiB], temperature.gpu"
	print "0, 100, 37"
}' | head -c -1 > temp.csv
gpumem-read --start 2026-01-01T00:00:00Z temp.csv
echo "cut inside a gzip member, at its last line"
gzip -c q.csv | head -c -12 > q.csv.gz
rc=0; gpumem-read q.csv.gz || rc=$?
echo "exit $rc"
