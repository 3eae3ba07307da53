# A record directory's procs.csv and holders.csv are no records: read
# leaves them out of the stream, and says so, since what reads the
# stream from a pipe cannot know they were there.  tasks given the
# directory itself uses them (exact exits: tasks/exact-exit.sh).
. "$TESTS/lib.sh"
mkdir run
recording 'for (t = 0; t < 20; t++) {
	if (t >= 2 && t <= 8) proc(t, 5000, 1024, "python3 test_a.py")
	if (t == 9) proc(t, 5000, 0, "python3 test_a.py")
	dev(t, t >= 2 && t <= 9 ? 1324 : 300)
}' > run/stream.csv
printf 'pid,ppid,name,start_ns,exit_ns,exit\n5000,1,python3,1767225601500000000,1767225608500000000,status 0\n' > run/procs.csv
gpumem-read run 2> err.txt > out.csv
expect_eq "procs.csv" "$(grep -v records err.txt)" \
    "gpumem-read: run: procs.csv is not in the record stream: give the directory itself to tasks, check, gantt or report for its exact exits and device holders"
printf 'time_ns,gpu,pid,name,cgroup,container\n' > run/holders.csv
gpumem-read run 2> err.txt > out.csv
expect_eq "both" "$(grep -v records err.txt)" \
    "gpumem-read: run: procs.csv and holders.csv are not in the record stream: give the directory itself to tasks, check, gantt or report for its exact exits and device holders"
# The records are the logs' alone, and a pipe to tasks has no exact exit.
expect_eq "records" "$(tail -n +2 out.csv | wc -l)" 28
note() { awk -F, 'NR == 2 { print $15 }'; }
expect_eq "piped" "$(gpumem-tasks -q < out.csv | note)" ""
expect_eq "the directory" "$(gpumem-tasks -q run | note)" "exact-exit"
# -q is quiet; a directory without them, or a file, says nothing.
expect_eq "quiet" "$(gpumem-read -q run 2>&1 > /dev/null)" ""
rm run/procs.csv run/holders.csv
expect_eq "none" "$(gpumem-read run 2>&1 > /dev/null | grep -v records)" ""
