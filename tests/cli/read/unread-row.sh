# A compute-apps row that cannot be read is unknown, not absent: the poll
# it was in ends no process (no made-up memory_used = 0, no task split in
# two).  When the row's own time cannot be read, the polls before and
# after it end none.  A process missing from a clean poll still ends there.
. "$TESTS/lib.sh"
# $1: what poll 3's row of pid 77 becomes; pid 55 ends after poll 4.
mklog() {
	awk -v bad="$1" 'BEGIN {
		print "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]"
		for (t = 1; t <= 6; t++) {
			ts = sprintf("2026/01/01 00:00:%02d.000", t)
			printf "%s, GPU-a, 11, other, 10 MiB\n", ts
			if (t == 3)
				print bad
			else
				printf "%s, GPU-a, 77, train, 1040 MiB\n", ts
			if (t <= 4)
				printf "%s, GPU-a, 55, short, 20 MiB\n", ts
		}
	}'
}
for bad in \
	'2026/01/01 00:00:03.000, GPU-a, 77, train, 10#40 MiB' \
	'2026/01/01 00:00:03.000, GPU-a, 7x7, train, 1040 MiB' \
	'2026/01/01 00:0#:03.000, GPU-a, 77, train, 1040 MiB' \
	'2026/01/01 00:00:03.000, GPU-a, 77, train'; do
	mklog "$bad" > apps.csv
	echo "== $bad"
	gpumem-read -q apps.csv | grep -v ',11,'
	gpumem-tasks -q apps.csv | cut -d, -f3,4,5,6,12 | grep -v ',other,'
done
