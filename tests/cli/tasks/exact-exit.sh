# An exact exit (gpumem record's procs.csv beside the logs) ends a task
# at that exit: its delay is then bounded by the device samples alone.
#
# 1 s polls of both loops from 00:00:00 to 00:00:19; pid 5000 listed
# with 1024 MiB from 00:00:02 to 00:00:08 (gone at 00:00:09), the device
# holding them until 00:00:09 and back at 00:00:10.
# From the polls alone it ended between 8 and 9 s (the poll that missed
# it) and its delay is 0 to 2 s.  It exited at 8.5 s (procs.csv): its
# end is 8.5 s and the delay 0.5 to 1.5 s, one device interval.
. "$TESTS/lib.sh"
mkdir run
recording 'for (t = 0; t < 20; t++) {
	if (t >= 2 && t <= 8) proc(t, 5000, 1024, "python3 test_a.py")
	if (t == 9) proc(t, 5000, 0, "python3 test_a.py")
	dev(t, t >= 2 && t <= 9 ? 1324 : 300)
}' > run/stream.csv
t0=1767225600000000000
# pid end delay_min_s delay_max_s note, from tasks' CSV.
row() { gpumem-tasks -q run | awk -F, 'NR == 2 { print $3, $6, $13, $14, $15 }'; }
expect_eq "polls alone" "$(row)" "5000 $((t0 + 9000000000)) 0.000 2.000 "
printf 'pid,ppid,name,start_ns,exit_ns,exit\n' > run/procs.csv
printf '4999,1,sh,%s,%s,status 0\n' $((t0 + 1000000000)) $((t0 + 9500000000)) >> run/procs.csv
printf '5000,4999,python3,%s,%s,status 0\n' $((t0 + 1500000000)) $((t0 + 8500000000)) >> run/procs.csv
expect_eq "with its exit" "$(row)" "5000 $((t0 + 8500000000)) 0.500 1.500 exact-exit"
# An exit outside its life (a pid used again) is not its.
sed -i "s/^5000,4999,python3,\([0-9]*\),[0-9]*,/5000,4999,python3,\1,$((t0 + 15000000000)),/" run/procs.csv
expect_eq "another life's exit" "$(row)" "5000 $((t0 + 9000000000)) 0.000 2.000 "
# A row that does not read is said, with its line.
echo '5001,1,x,1,notatime,status 0' >> run/procs.csv
gpumem-tasks run > /dev/null 2> err.txt
grep -q "^gpumem-tasks: run/procs.csv:4: 1 row that does not read, left out$" err.txt ||
	die "$(cat err.txt)"
