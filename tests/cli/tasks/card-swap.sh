# A card swapped in the same slot: a 24 GiB card (one UUID) leaks
# 3072 MiB (pid 100 ends at 10:03:20, its memory never comes back), the
# machine is down a minute, and a 48 GiB card (another UUID, the same bus
# id) starts at 2940 MiB used and runs pid 300, which releases.  Logged as
# nvidia-smi -l 1 writes --query-gpu=timestamp,index,uuid,pci.bus_id,
# memory.used,memory.total and --query-compute-apps=timestamp,gpu_uuid,
# pid,process_name,used_gpu_memory.  The new card is a GPU of its own
# (said), so the leak is the true 3072 MiB, not 3072 less what the new
# card starts with: in one log, in two logs (before/ after/), and in a
# log without UUIDs, by memory.total.  Said with -q too.
. "$TESTS/lib.sh"
awk 'BEGIN {
	q = "query-gpu.csv"; c = "compute-apps.csv"
	print "timestamp, index, uuid, pci.bus_id, memory.used [MiB], " \
	    "memory.total [MiB]" > q
	print "timestamp, gpu_uuid, pid, process_name, " \
	    "used_gpu_memory [MiB]" > c
	u1 = "GPU-11111111-2222-3333-4444-555555555555"
	u2 = "GPU-66666666-7777-8888-9999-000000000000"
	for (t = 0; t <= 600; t++) {
		if (t > 300 && t < 360)
			continue	# down: the card is swapped
		ts = sprintf("2026/01/01 10:%02d:%02d.000", int(t / 60),
		    t % 60)
		if (t <= 300) {
			used = t >= 60 ? 3072 : 0
			printf "%s, 0, %s, 00000000:01:00.0, %d MiB, " \
			    "24576 MiB\n", ts, u1, used > q
			if (t >= 60 && t < 200)
				printf "%s, %s, 100, python leak.py, " \
				    "3072 MiB\n", ts, u1 > c
		} else {
			run = t >= 400 && t < 500
			used = 2940 + (run ? 1000 : 0)
			printf "%s, 0, %s, 00000000:01:00.0, %d MiB, " \
			    "49152 MiB\n", ts, u2, used > q
			if (run)
				printf "%s, %s, 300, python ok.py, " \
				    "1000 MiB\n", ts, u2 > c
		}
	}
}'
mkdir before after nouuid
for f in query-gpu.csv compute-apps.csv; do
	awk -v f="$f" 'NR == 1 { print > ("before/" f); print > ("after/" f)
		next }
	{ print > ((/GPU-1/ ? "before/" : "after/") f) }' "$f"
done
awk -F', ' -v OFS=', ' '{ print $1, $2, $4, $5, $6 }' query-gpu.csv \
    > nouuid/query-gpu.csv
sed 's/gpu_uuid/gpu_bus_id/; s/GPU-[0-9a-f-]*/00000000:01:00.0/' \
    compute-apps.csv > nouuid/compute-apps.csv
echo "== one log: tasks"
gpumem-tasks -q query-gpu.csv compute-apps.csv 2>&1 | cut -d, -f1-4,11,12
echo "== one log: check"
rc=0; gpumem-check query-gpu.csv compute-apps.csv 2>&1 || rc=$?
echo "exit $rc"
echo "== two logs: tasks -q"
gpumem-tasks -q before/ after/ 2>&1 | cut -d, -f1-4,11,12
# Processes named by bus id go to the card the slot held when the
# device log was read that far: with --window 1, when their time came.
echo "== no UUIDs: tasks -q --window 1"
gpumem-tasks -q --window 1 nouuid/ 2>&1 | cut -d, -f1-4,11,12
echo "== no UUIDs: the device samples of each GPU: first, last, count"
gpumem-read -q nouuid/query-gpu.csv 2>&1 | awk -F, '
	!/^[0-9]/ { print; next }
	{ n[$3]++; if (!($3 in a)) a[$3] = $1; z[$3] = $1 }
	END { for (g in n) print g, a[g], z[g], n[g] }' | sort
