# Every output that lists GPUs lists them in one order: by host name, then
# by GPU index as a number (GPU 2 before GPU 10), whatever order the
# input gives (gpumap_hostgpu_cmp).  The stream, written by awk, names them
# b:10, a:2, b:2, a:10; each GPU runs one task.
. "$TESTS/lib.sh"
awk 'BEGIN {
	t0 = 1767225600	# 2026-01-01T00:00:00Z
	print "timestamp,host,gpu,process_id,memory_used,memory_free," \
	    "memory_total,process_name"
	split("b 10|a 2|b 2|a 10", k, "|")
	for (s = 0; s < 12; s++)
		for (i = 1; i <= 4; i++) {
			split(k[i], hg, " ")
			used = s >= 2 && s < 8 ? 1024 * i : 0
			printf "%d000000000,%s,%s,0,%d,%d,16384,\n", t0 + s,
			    hg[1], hg[2], used, 16384 - used
			if (s >= 2 && s <= 8)
				printf "%d000000000,%s,%s,%d,%d,,,job%d\n",
				    t0 + s, hg[1], hg[2], 70 + i, used, i
		}
}' > o.csv
want="a:2 a:10 b:2 b:10"
# usage --every: the buckets of one time, in GPU order.
gpumem-usage -q --every 4s o.csv > u.csv
expect_eq "usage --every" "$(awk -F, 'NR > 1 && NR <= 5 { printf("%s%s:%s",
    NR > 2 ? " " : "", $2, $3) }' u.csv)" "$want"
# check --json: the gpus array.
gpumem-check -q --json c.json o.csv
command -v jq > /dev/null 2>&1 || skip "jq is absent"
expect_eq "check --json" "$(jq -r '[.gpus[] | "\(.host):\(.gpu)"] |
    join(" ")' c.json)" "$want"
# gantt --text: one row a task, in GPU order.
gpumem-gantt -q --text o.csv > g.txt
expect_eq "gantt --text" "$(awk '/│/ && $1 ~ /:/ { printf "%s%s",
    n++ ? " " : "", $1 }' g.txt)" "$want"
