# A declared task (--tasks, a device-only log) is released when usage is
# back within the tolerance of its level before the start: a query-gpu
# log written by awk, 1000 MiB used before the job (00:00:05 to 00:00:15),
# 5096 MiB during it, and from 00:00:18 on 1000 + LEFT MiB.  Within the
# default 64 MiB: released 3 s after its end for LEFT 30; leaked for 100.
. "$TESTS/lib.sh"
log() {
	awk -v left="$1" 'BEGIN {
		print "timestamp, index, memory.total [MiB], " \
		    "memory.used [MiB], memory.free [MiB]"
		for (s = 0; s < 30; s++) {
			used = s < 5 ? 1000 : s < 18 ? 5096 : 1000 + left
			printf "2026/01/01 00:00:%02d.000, 0, 16384 MiB, " \
			    "%d MiB, %d MiB\n", s, used, 16384 - used
		}
	}'
}
cat > jobs.csv <<'CSV'
name,gpu,start,end
job,0,2026-01-01T00:00:05Z,2026-01-01T00:00:15Z
CSV
for left in 30 100; do
	log $left > q.csv
	echo "# 1000 + $left MiB after the job"
	gpumem-tasks -q --tasks jobs.csv q.csv | cut -d, -f4,9-12
done
