# Memory no process listing owns is named after the process that held
# its GPU open (gpumem record's holders.csv beside the logs), in tasks,
# in check's verdict and in gantt.
#
# A device-only recording (whole-device samples alone), 1 s samples from
# 00:00:00 to 00:00:29, and the holders of GPU 0 at each poll: Xorg all
# along; python3 in a container from 4 s to 12 s while 2048 MiB are in
# use from 5 s to 12 s (back at 13 s); webui from 19 s to the end while
# 4096 MiB are in use from 20 s, never back.  jupyter holds the GPU from
# 3 s to the end, more polls than python3 over the first episode: but
# python3 let go when its memory came back, and webui is the one new
# to the GPU when the second began.
# tasks' warning names them; with the holders' scans cut before the
# second episode, it is (unlisted), and the warning says so.
. "$TESTS/lib.sh"
mkdir run
recording 'for (t = 0; t < 30; t++)
	dev(t, 300 + (t >= 5 && t <= 12 ? 2048 : 0) + (t >= 20 ? 4096 : 0))' > run/stream.csv
awk 'BEGIN {
	print "time_ns,gpu,pid,name,cgroup,container"
	for (t = 0; t < 30; t++) {
		h = (1767225600 + t) "000000000,0,"
		print h "777,Xorg,/system.slice/display-manager.service,"
		if (t >= 4 && t <= 12) print h "4242,python3,/system.slice/docker-0123456789ab.scope,0123456789ab"
		if (t >= 3) print h "3030,jupyter,/user.slice/user-1000.slice,"
		if (t >= 19) print h "5151,webui,/user.slice/user-1000.slice,"
	}
}' > run/holders.csv
gpumem-tasks -q run | awk -F, 'NR > 1 { print $4 "|" $12 "|" $15 }' > tasks.txt
cat > want.txt <<'WANT'
held by 4242 python3 in container 0123456789ab|released|device-only;holder
held by 5151 webui|leaked|device-only;holder
WANT
cmp -s tasks.txt want.txt || die "tasks: $(cat tasks.txt)"
rc=0; gpumem-check -q run 2> err.txt || rc=$?
expect_eq "check: exit" $rc 1
grep -q '^gpumem-check: gpu 0: held by 5151 webui (no process listed): max_leak_mib: leaked 4096 MiB' err.txt ||
	die "check: $(cat err.txt)"
# gantt (and report, through the same reading) draw them by that name.
gpumem-gantt -q --text --width 100 run > gantt.txt
grep -q '^gpu0 held by 5151 webui ' gantt.txt || die "gantt: $(cat gantt.txt)"
# The warning names them too, and says whose are not known.
gpumem-tasks run 2> err.txt > /dev/null
expect_eq "warning" "$(grep 'no process was listed' err.txt)" \
    "gpumem-tasks: no process was listed on 1 GPU: 2 rises of memory in use, 4096 MiB of it not back at the end; 2 named after the process holding the GPU open (note 'holder'), the first held by 4242 python3 in container 0123456789ab"
awk -F, 'NR == 1 || $1 < 1767225619000000000' run/holders.csv > h.csv
mv h.csv run/holders.csv
gpumem-tasks run 2> err.txt > /dev/null
expect_eq "warning, one named" "$(grep 'no process was listed' err.txt)" \
    "gpumem-tasks: no process was listed on 1 GPU: 2 rises of memory in use, 4096 MiB of it not back at the end; 1 named after the process holding the GPU open (note 'holder'), the first held by 4242 python3 in container 0123456789ab; the others are named (unlisted): give the --query-compute-apps log of the same run, or --tasks, to know whose"
# Without holders.csv the same memory is nobody's.
rm run/holders.csv
expect_eq "without holders" "$(gpumem-tasks -q run | awk -F, 'NR > 1 { print $4 }' | sort -u)" "(unlisted)"
