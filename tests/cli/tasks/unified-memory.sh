# A unified-memory GPU (GB10, DGX Spark): nvidia-smi's --query-gpu memory
# fields are [N/A] (N/A with nounits) on every row, while compute-apps
# may still list processes with their memory.  There is no usage curve, so
# no release can be told: no task is "released", the leaks' amount is
# unknown, and each verb says why -- not "0 MiB never came back", nor
# "give the --query-gpu log" (it was given).  Logs written with awk as
# nvidia-smi prints them (docs/log-formats.md).
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "timestamp, index, uuid, memory.used [MiB], memory.total [MiB]"
	for (i = 0; i < 30; i++)
		printf "2026/01/01 00:00:%02d.000, 0, GPU-b10, [N/A], [N/A]\n", i
}' > q.csv
awk 'BEGIN {
	print "timestamp, index, uuid, memory.used, memory.total"
	for (i = 0; i < 30; i++)
		printf "2026/01/01 00:00:%02d.000, 0, GPU-b10, N/A, N/A\n", i
}' > qn.csv
awk 'BEGIN {
	print "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]"
	for (i = 2; i < 10; i++)
		printf "2026/01/01 00:00:%02d.500, GPU-b10, 700, python3 a.py, 4096 MiB\n", i
	for (i = 12; i < 20; i++)
		printf "2026/01/01 00:00:%02d.500, GPU-b10, 701, python3 b.py, 2048 MiB\n", i
}' > apps.csv
for q in q.csv qn.csv; do
	gpumem-read -q "$q" > /dev/null
	gpumem-read "$q" 2> err.txt > /dev/null
	grep -q "memory N/A on every row (a unified-memory GPU such as GB10 reports none: no usage, no release can be told)" err.txt ||
		die "$q: read says: $(cat err.txt)"
	gpumem-tasks "$q" apps.csv > got.csv 2> err.txt
	expect_eq "$q: statuses" "$(awk -F, 'NR > 1 { print $3, $12, $11 }' got.csv)" "700 leaked 
701 leaked "
	expect_eq "$q: what tasks says" "$(cat err.txt)" "gpumem-tasks: 2 tasks ended on GPUs whose 30 whole-device samples have no memory figures (N/A: a unified-memory GPU such as GB10 reports none): whether their memory came back is unknown
gpumem-tasks: 2 tasks: 0 released, 2 leaked (how much, unknown), 0 running"
	gpumem-report -q -o r.html "$q" apps.csv
	grep -q "how much is unknown: no whole-device memory figures after they ended" r.html ||
		die "$q: the report's leak card: $(grep -o 'leaks</div>.\{0,120\}' r.html)"
	grep -q "all memory came back\|0 MiB never came back" r.html &&
		die "$q: the report claims an amount"
	expect_exit 1 gpumem-check -q "$q" apps.csv
done
