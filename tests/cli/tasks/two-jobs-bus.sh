# Two jobs on two machines, each on "GPU 0" of its own, logged the way
# nvidia-smi -l 1 writes them (--query-gpu=timestamp,index,pci.bus_id,
# memory.used,memory.total and --query-compute-apps=timestamp,gpu_bus_id,
# pid,process_name,used_gpu_memory), one directory per job.  Each job
# alone releases its memory within a second.  Read together:
# - with bus ids, the bus id is the GPU across the inputs: the second
#   machine's GPU 0 is read as GPU 1 (said, with -q too), each task is
#   released within a second as in its own log, check passes;
# - without bus ids, or with the same bus id on both machines, nothing
#   tells the two apart: the collision is said with -q too, and check is
#   trouble (2), not a failure, on the leak the merge invents.
. "$TESTS/lib.sh"
job() {	# DIR BUS PID FROM TO MIB BASE
	mkdir "$1"
	awk -v dir="$1" -v bus="$2" -v pid="$3" -v from="$4" -v to="$5" \
	    -v mib="$6" -v base="$7" 'BEGIN {
		q = dir "/query-gpu.csv"; c = dir "/compute-apps.csv"
		print "timestamp, index, pci.bus_id, memory.used [MiB], " \
		    "memory.total [MiB]" > q
		print "timestamp, gpu_bus_id, pid, process_name, " \
		    "used_gpu_memory [MiB]" > c
		for (t = 0; t <= 600; t++) {
			ts = sprintf("2026/01/01 10:%02d:%02d.000",
			    int(t / 60), t % 60)
			run = t >= from && t < to
			printf "%s, 0, %s, %d MiB, 81920 MiB\n", ts, bus,
			    base + (run ? mib : 0) > q
			if (run)
				printf "%s, %s, %d, python train.py, %d MiB\n",
				    ts, bus, pid, mib > c
		}
	}'
}
job a 00000000:CA:00.0 100 60 300 4096 500
job b 00000000:B1:00.0 200 100 500 8192 300
# The same logs without the bus id columns.
for d in a:c b:d; do
	mkdir "${d#*:}"
	awk -F', ' -v OFS=', ' '{ print $1, $2, $4, $5 }' \
	    "${d%:*}/query-gpu.csv" > "${d#*:}/query-gpu.csv"
	awk -F', ' -v OFS=', ' '{ print $1, $3, $4, $5 }' \
	    "${d%:*}/compute-apps.csv" > "${d#*:}/compute-apps.csv"
done
echo "== bus ids: tasks"
gpumem-tasks a/ b/ | cut -d, -f1-12
echo "== bus ids: tasks -q -j 2"
gpumem-tasks -q -j 2 a/ b/ 2>&1 | cut -d, -f1-12
echo "== bus ids: tasks -q --max-open 2 (merged in passes)"
gpumem-tasks -q --max-open 2 a/ b/ 2>&1 | cut -d, -f1-12
echo "== bus ids: check -q"
rc=0; gpumem-check -q a/ b/ 2>&1 || rc=$?
echo "exit $rc"
echo "== no bus ids: tasks -q"
gpumem-tasks -q c/ d/ 2>&1 >/dev/null
echo "== no bus ids: check -q"
rc=0; gpumem-check -q c/ d/ 2>&1 || rc=$?
echo "exit $rc"
# Two machines whose GPU 0 sits at the same bus id (common) and no UUID:
# nothing tells them apart either.
mkdir e
sed 's/B1:00.0/CA:00.0/' b/query-gpu.csv > e/query-gpu.csv
sed 's/B1:00.0/CA:00.0/' b/compute-apps.csv > e/compute-apps.csv
echo "== the same bus id: check -q"
rc=0; gpumem-check -q a/ e/ 2>&1 || rc=$?
echo "exit $rc"
echo "== one job each: check"
gpumem-check -q c/ && gpumem-check -q d/ && echo "exit 0"
