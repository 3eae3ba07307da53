# Memory left at the end on a GPU that lists processes, that no listing
# holds, is named after the processes holding the GPU open at the end
# that nvidia-smi did not list (holders.csv beside the logs): a task of
# its own (pid 0, note holder), said on stderr, check's verdict names
# it, and gantt draws it.
#
# 1 s samples from 00:00:00 to 00:00:29 on GPU 0: 300 MiB at the start;
# pid 5000 listed with 1024 MiB from 2 s to the end; 2048 MiB more in use
# from 10 s to the end that no listing holds.  Holders at each poll: Xorg
# and jupyter all along, 5000 (listed, so not it) from 2 s, and python3
# in a container from 9 s.  The container's python3 is the one new to
# the GPU since the first sample: it alone is named, from 9 s.
. "$TESTS/lib.sh"
mkdir run
recording 'for (t = 0; t < 30; t++) {
	if (t >= 2) proc(t, 5000, 1024, "python3 train.py")
	dev(t, 300 + (t >= 2 ? 1024 : 0) + (t >= 10 ? 2048 : 0))
}' > run/stream.csv
# holders FROM TO: holders.csv, polls from FROM s to TO s.
holders() {
	awk -v from="$1" -v to="$2" 'BEGIN {
		print "time_ns,gpu,pid,name,cgroup,container"
		for (t = from; t <= to; t++) {
			h = (1767225600 + t) "000000000,0,"
			print h "777,Xorg,/system.slice/display-manager.service,"
			print h "3030,jupyter,/user.slice/user-1000.slice,"
			if (t >= 2) print h "5000,python3,/user.slice/user-1000.slice,"
			if (t >= 9) print h "4242,python3,/system.slice/docker-0123456789ab.scope,0123456789ab"
		}
	}'
}
holders 0 29 > run/holders.csv
# pid|name|start|end|leaked|status|note
rows() { gpumem-tasks "$@" run | awk -F, 'NR > 1 { print $3 "|" $4 "|" $5 "|" $6 "|" $11 "|" $12 "|" $15 }'; }
rows 2> err.txt > got.txt
cat > want.txt <<'WANT'
5000|python3 train.py|1767225602000000000|1767225629000000000||running|
0|held by 4242 python3 in container 0123456789ab|1767225609000000000|1767225629000000000|2048|leaked|holder
WANT
cmp -s got.txt want.txt || die "tasks: $(cat got.txt)"
expect_eq "tasks' message" "$(grep 'at the end' err.txt)" \
    "gpumem-tasks: GPU 0: 2048 MiB in use at the end is no listed process's: held by 4242 python3 in container 0123456789ab, which held the GPU open at the end unlisted (a task of its own, note 'holder')"
rc=0; gpumem-check -q run 2> err.txt || rc=$?
expect_eq "check: exit" $rc 1
grep -q '^gpumem-check: gpu 0: held by 4242 python3 in container 0123456789ab (no process listed): max_leak_mib: leaked 2048 MiB' err.txt ||
	die "check: $(cat err.txt)"
# gantt (and report, through the same reading) draw it by that name.
gpumem-gantt -q --text --width 100 run > gantt.txt
grep -q '^gpu0 held by 4242 python3 in c.* LEAKED 2.0 GiB$' gantt.txt || die "gantt: $(cat gantt.txt)"
# No one new: those holding it all along are named, both.
grep -v ',4242,' run/holders.csv > h.csv && mv h.csv run/holders.csv
expect_eq "none new" "$(rows -q | sed -n 2p)" \
    "0|held by 777 Xorg and 3030 jupyter|1767225600000000000|1767225629000000000|2048|leaked|holder"
# Scans that stopped at 20 s name no one at the end: nobody's, as before.
holders 0 20 > run/holders.csv
gpumem-tasks run 2> err.txt | awk -F, 'NR > 1 { print $3 }' > got.txt
expect_eq "scans stopped" "$(cat got.txt)" 5000
grep -q '2048 MiB in use at the end on 1 GPU is held by no task' err.txt || die "stopped: $(cat err.txt)"
# The listed process alone holding it at the end is no holder of it.
holders 0 29 | awk -F, '$3 != 777 && $3 != 3030 && $3 != 4242' > run/holders.csv
expect_eq "the listed one" "$(rows -q | wc -l)" 1
