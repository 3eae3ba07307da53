# record writes procs.csv: every process under the command, with its
# start, its exit and its exit status.  The command (sh, exit 3) starts
# A, which outlives it and exits 5, and B, which kills itself (SIGKILL):
# both are orphans then (record's --after outlasts them), reaped by
# record with their exact status; each runs a sleep that its own parent
# reaps (its status "status 0", or
# "unknown" when the parent reaped it before record read it).  Each of
# A and B writes the time when it starts and before it ends: record's
# start is at or before the one, its exit at or after the other.
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
t0=$(date +%s%N)
rc=0
gpumem-record --before 0 --after 3s -o run 2> err.txt -- sh -c '
	sh -c "date +%s%N > a.start; sleep 0.8; date +%s%N > a.end; exit 5" &
	sh -c "date +%s%N > b.start; sleep 0.6; date +%s%N > b.end; kill -9 \$\$" &
	sleep 0.4; exit 3' || rc=$?
t1=$(date +%s%N)
expect_eq "exit status" $rc 3
head -n 1 run/procs.csv > head.txt
expect_eq "header" "$(cat head.txt)" "pid,ppid,name,start_ns,exit_ns,exit"
# The three shells: the command, A and B, by their statuses; not a fork
# of A or B that the scan saw before it became date (still named sh: on
# a loaded machine the time between fork and exec is long enough).
awk -F, 'NR > 1 && $3 == "sh" { up[$1] = $2; st[$1] = $6 }
END { for (p in up) if (!(up[p] in up) || !(up[up[p]] in up)) print st[p] }' \
    run/procs.csv | sort > sh.txt
printf '%s\n' 'signal 9' 'status 3' 'status 5' > want.txt
cmp -s sh.txt want.txt || die "the shells' exits: $(cat run/procs.csv)"
# Every row has a start and an exit within the run; the sleeps (3, each
# of 0.4 s or more: on a loaded machine record may not run for as long,
# so one at least) and the date commands that outlive the 10 ms scan may
# be there too.
awk -F, -v t0="$t0" -v t1="$t1" 'NR > 1 {
	if ($4 + 0 < t0 - 20000000 || $5 + 0 > t1 || $5 + 0 < $4 + 0) bad = bad " " $0
	if ($3 == "sleep") { sleeps++; if ($6 != "status 0" && $6 != "unknown") bad = bad " " $0 }
} END { if (bad != "" || sleeps < 1 || sleeps > 3) { print sleeps " sleeps;" bad; exit 1 } }' run/procs.csv > bad.txt ||
	die "rows: $(cat bad.txt)"
# A ended with status 5, B by signal 9: exact exits against their own
# clocks.  The start is the kernel's, to the clock tick (10 ms).
for x in a:5:status b:9:signal; do
	n=${x%%:*} code=${x#*:}
	how=${code#*:} code=${code%%:*}
	row=$(awk -F, -v e="$how $code" '$6 == e' run/procs.csv)
	[ -n "$row" ] || die "$n: no row with $how $code"
	awk -F, -v s="$(cat $n.start)" -v e="$(cat $n.end)" -v row="$row" 'BEGIN {
		split(row, f, ",")
		if (f[4] > s + 1000000 || f[5] < e || f[5] - e > 5e9) exit 1
	}' || die "$n: $row against start $(cat $n.start), end $(cat $n.end)"
	expect_eq "$n: ppid (the command)" "$(echo "$row" | cut -d, -f2)" \
	    "$(awk -F, '$6 == "status 3" { print $1 }' run/procs.csv)"
done
# The command's row: exits after its sleep 0.4.
cmd=$(awk -F, '$6 == "status 3"' run/procs.csv)
awk -F, -v row="$cmd" 'BEGIN { split(row, f, ","); exit !(f[5] - f[4] >= 400000000) }' ||
	die "command: $cmd"
expect_eq "stderr" "$(grep -v 'recording 3 s more' err.txt || :)" ""
# A child's start is never before its parent's (the kernel's is to the
# clock tick, the command's exact): a child forked at once starts in the
# command's tick often, so eight runs of one.
not_early() {
	awk -F, 'NR > 1 { start[$1] = $4; parent[$1] = $2 }
	END { for (p in parent) if ((parent[p] in start) && start[p] < start[parent[p]]) { print p; exit 1 } }' \
	    "$1" > early.txt || die "$1: started before its parent: $(cat early.txt)"
}
not_early run/procs.csv
for i in 1 2 3 4 5 6 7 8; do
	gpumem-record -q --before 0 --after 0 -o fork$i -- sh -c 'sleep 0.3 & wait'
	not_early fork$i/procs.csv
done
# What still runs at the end is named, and left running.
gpumem-record --before 0 --after 0 -o run2 -- \
    sh -c 'sleep 30 & p=$!; echo $p > left.pid
	until grep -qx sleep /proc/$p/comm; do sleep 0.01; done' 2> err2.txt
left=$(cat left.pid)
bg_add $left
expect_eq "left running" "$(cat err2.txt)" \
    "gpumem-record: 1 process under the command still running at the end, left as it is: $left sleep"
kill -0 $left || die "the sleep was not left running"
expect_eq "its row" "$(awk -F, -v p=$left '$1 == p { print $3 "," $5 "," $6 }' run2/procs.csv)" "sleep,,running"
# gpumem read leaves procs.csv and holders.csv out of the directory,
# and says only that (read/record-tables.sh).
gpumem-read run2 > recs.csv 2> read.err
! grep -v 'not in the record stream' read.err | grep -e procs.csv -e holders.csv ||
	die "read: $(cat read.err)"
grep -q '^gpumem-read: run2: procs.csv and holders.csv are not in the record stream' read.err ||
	die "read: $(cat read.err)"
