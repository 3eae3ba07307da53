# Which waiting tasks gave memory back: the drop goes to the tasks whose
# memory makes it up.  Streams written by awk: tasks start at 00:00:02 on
# an idle GPU (0 MiB) and end at 00:00:10 or so; their memory comes back
# in drops whose times and sizes each case gives.
. "$TESTS/lib.sh"
# stream "PID:MIB:END ..." "AT:MIB ...": each task holds MIB from 2 s to
# its end at END s; memory comes back MIB at a time at AT s.
stream() {
	awk -v tasks="$1" -v back="$2" 'BEGIN {
		t0 = 1767225600	# 2026-01-01T00:00:00Z
		nt = split(tasks, tk, " ")
		nb = split(back, bk, " ")
		print "timestamp,host,gpu,process_id,memory_used," \
		    "memory_free,memory_total,process_name"
		for (s = 0; s < 30; s++) {
			used = 0
			for (i = 1; i <= nt; i++) {
				split(tk[i], f, ":")
				used += s >= 2 ? f[2] : 0
			}
			for (i = 1; i <= nb; i++) {
				split(bk[i], f, ":")
				used -= s >= f[1] ? f[2] : 0
			}
			printf "%d000000000,,0,0,%d,%d,16384,\n", t0 + s,
			    used, 16384 - used
			for (i = 1; i <= nt; i++) {
				split(tk[i], f, ":")
				if (s >= 2 && s <= f[3])
					printf "%d000000000,,0,%d,%d,,,p%d\n",
					    t0 + s, f[1], s < f[3] ? f[2] : 0,
					    f[1]
			}
		}
	}'
}
# pid and release delay of each task, by pid.
delays() {
	gpumem-tasks -q "$1" | tail -n +2 | cut -d, -f3,10,12 | sort -n
}
# 1000 MiB back at 13 s is exactly 1001's, not the 1030 of 1002 (both
# within the tolerance; the closer set).
stream "1001:1000:10 1002:1030:10" "13:1000 20:1030" > closer.csv
delays closer.csv
# 1000 MiB back at 13 s is exactly 1001's, not 1002 and 1003's 1050
# together (one task, not two, and the closer).
stream "1001:1000:10 1002:600:10 1003:450:10" "13:1000 20:1050" > one.csv
delays one.csv
# Half of 1001's 4096 MiB back at 13 s, the rest at 20 s: 1001 released
# in part, then whole after 10 s; 1002's 1000 MiB, held until 25 s, is
# not taken for a part of that (released after 14 s).
stream "1001:4096:10 1002:1000:11" "13:2048 20:2048 25:1000" > part.csv
delays part.csv
# Two tasks alike (1000 MiB, ended at the same poll): either could have
# given back the first 1000 MiB; the rule is the later in the poll, 1002
# (the engine's ties go to the later waiting tasks).
stream "1001:1000:10 1002:1000:10" "13:1000 20:1000" > tie.csv
delays tie.csv
