# Tens of thousands of GPUs in one stream: memory stays bounded.  The
# engine analyses at most 65536 GPUs, the charts draw at most 256, a run
# keeps at most 65536 GPU identities; each cap says what it left out, and
# a reader's summary still adds up (records + skipped = rows).  Peak RSS
# with 200000 GPUs is that with 100000 (normal build only).
. "$TESTS/lib.sh"
# gpus N: a device-only stream of N GPUs, two samples each.
gpus() {
	awk -v n="$1" 'BEGIN {
		print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
		for (t = 0; t < 2; t++)
			for (g = 0; g < n; g++)
				printf "%d%09d,,%d,0,%d,%d,16384,\n", t, g, g, 100 + t, 16284 - t
	}'
}
gpus 100000 > g100k.csv
gpus 200000 > g200k.csv
gpumem-tasks g100k.csv > /dev/null 2> err.txt
cat err.txt
gpumem-usage -q --every 1m g100k.csv | tail -n +2 | wc -l
gpumem-check -q g100k.csv
echo "check: exit $?"
gpumem-plot --script g100k.csv > plot.gp 2> err.txt
cat err.txt
grep -c '^set title' plot.gp
# compute-apps naming 70000 GPUs by UUID, none of them in a device log.
awk 'BEGIN {
	print "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]"
	for (g = 0; g < 70000; g++)
		printf "2026/01/01 00:00:00.000, GPU-%08d-0000-0000-0000-000000000000, %d, python, 100 MiB\n", g, 1000 + g
}' > apps.csv
gpumem-read -o apps-out.csv apps.csv 2> err.txt
grep -v 'no device log of this run names' err.txt
nrec apps-out.csv
# A query-gpu log naming 70000 GPU indexes: its summary counts 65536 and
# says there were more (the set it counts them in stays bounded).
awk 'BEGIN {
	print "timestamp, index, memory.used [MiB], memory.free [MiB]"
	for (g = 0; g < 70000; g++)
		printf "2026/01/01 00:00:00.000, %d, 1 MiB, 2 MiB\n", g
}' > q70k.csv
gpumem-read -o /dev/null q70k.csv 2>&1 | grep -o 'CSV, more than [0-9]* GPUs'
[ "$VARIANT" = normal ] || exit 0
# In one thread and in chunks, each: without -j the load average of the
# moment decides whether g200k.csv (15 MB) is read in chunks (14 MiB
# more for read), and g100k.csv (7 MB) never is.
for tool in "gpumem-tasks" "gpumem-plot --script" "gpumem-read"; do
	for j in 1 2; do
		# (plot says its cut even with -q: report/cut.sh looks at that)
		a=$("$TOOLS/maxrss" /dev/null $tool -q -j $j g100k.csv 2> /dev/null)
		b=$("$TOOLS/maxrss" /dev/null $tool -q -j $j g200k.csv 2> /dev/null)
		[ "$b" -lt $((a + a / 10)) ] ||
			die "$tool -j $j: peak RSS grew from $a KiB (100000 GPUs) to $b KiB (200000)"
	done
done
exit 0
