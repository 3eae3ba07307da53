# A --tasks file without a host column names GPU indexes: on data of one
# host, the tasks are that host's; on data of two, they are judged on
# each and a warning says so; tasks whose host is not in the data are
# never judged in silence: a warning names their host and the data's.
. "$TESTS/lib.sh"

# jobs TRUTH [HOST]: the --tasks CSV of the truth's tasks, with a host
# column when HOST is given.
jobs() {
	echo "name,gpu,start,end${2:+,host}"
	tail -n +2 "$1" | while IFS=, read -r host gpu pid name start end rest; do
		echo "$name,$gpu,$(iso "$start"),$(iso "$end")${2:+,$2}"
	done
}

# The device records of a synth run on host node1 (no process records:
# a device-only log that names its host).
gpumem-synth -s concurrent --host node1 --truth truth.csv |
    awk -F, 'NR == 1 || $4 == 0' > node1.csv
awk -F, -v OFS=, 'NR > 1 { $3 = 0 } 1' truth.csv > want.csv
jobs truth.csv > jobs.csv
gpumem-tasks -q --tasks jobs.csv node1.csv > got.csv
sh "$TESTS/tools/taskcmp.sh" want.csv got.csv || die "one host"
cut -d, -f1,2,4,12 got.csv

# The same jobs named on host node2: not judged, and said.
jobs truth.csv node2 > jobs2.csv
gpumem-tasks --tasks jobs2.csv node1.csv | cut -d, -f1,2,4,12

# Two hosts with a GPU 0 each: judged on both, and said.
gpumem-synth -s concurrent --host node2 | awk -F, 'NR > 1 && $4 == 0' \
    > node2.csv
{ head -n 1 node1.csv; tail -n +2 node1.csv | cat - node2.csv |
    sort -t, -k1,1n -k2,2; } > both.csv
gpumem-tasks --tasks jobs.csv both.csv | cut -d, -f1,2,4,12

# A query-gpu log names no host; a task on GPU 3 has no samples.
gpumem-synth -s concurrent --nvsmi nv
printf 'name,gpu,start,end\njob,3,2026-01-01T00:00:05Z,2026-01-01T00:00:20Z\n' \
    > gpu3.csv
gpumem-tasks --tasks gpu3.csv nv/query-gpu.csv | cut -d, -f1,2,4,12
jobs truth.csv node1 > jobs1.csv
gpumem-tasks --tasks jobs1.csv nv/query-gpu.csv | cut -d, -f1,2,4,12
