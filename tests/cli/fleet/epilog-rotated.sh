# contrib/slurm/gpumem-epilog on a recording rotated as
# contrib/systemd/gpumem-recorder rotates it (DIR/hours/START/ and links
# DIR/START.query-gpu.csv, DIR/START.compute-apps.csv, START the period's
# UTC start), with stand-ins for squeue and scontrol (as epilog-forged.sh)
# and a gpumem that lists what the Epilog gave it:
#   - of three days of hourly periods, only the two that cover the job's
#     window (one started before it, a restart during it) are read; the
#     older ones and one started after the window closed hold what no
#     gpumem reads (a check that opened one would fail), as does an old
#     file of another name: the Epilog names the job's leak all the same;
#   - the recorder stopped during the job (its last sample 8 s before the
#     job's end): "the recorder stopped at T (N s before the job ended)",
#     from gpumem check, no drain; stopped before the job's window (every
#     file last written before it): the same line, from the files' times;
#   - a process name holding a line feed and an escape sequence reaches
#     the log line and syslog as a JSON string: one line, no ESC byte.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] ||
	skip "the Epilog is a script around gpumem check, which the sanitizer cases of check cover"
mkdir fakebin tmp
now=$(date +%s)
start=$((now - 30)) end=$((now - 15))
cat > fakebin/scontrol <<EOS
#!/bin/sh
echo "\$*" >> $PWD/drained
EOS
cat > fakebin/squeue <<EOS
#!/bin/sh
echo "$start $end"
EOS
cat > fakebin/logger <<EOS
#!/bin/sh
printf '%s\n' "\$*" >> $PWD/syslog
EOS
# gpumem: the files it was given, then the real one.
cat > fakebin/gpumem <<EOS
#!/bin/sh
ls "\$(eval echo \\\${\$#})" > $PWD/given
exec "$(command -v gpumem)" "\$@"
EOS
chmod +x fakebin/*

# nvsmi Q A FROM TO [LAST]: samples of GPU 0 a second apart from FROM to
# TO (seconds since the epoch) appended to the query-gpu log Q and the
# compute-apps log A (headers when they are new): pid 5001, "train",
# holds 2048 MiB from start+2 on and never gives it back, the process
# listed until end-3.  Samples stop at LAST when given (the recorder
# stopped).
nvsmi() {
	awk -v q="$1" -v a="$2" -v from="$3" -v to="$4" -v last="${5:-$4}" \
	    -v s=$start -v e=$end '
	function ts(t) { return strftime("%Y/%m/%d %H:%M:%S.000", t, 1) }
	BEGIN {
		if ((getline x < q) <= 0)
			print "timestamp, index, uuid, pci.bus_id, memory.total [MiB], memory.reserved [MiB], memory.used [MiB], memory.free [MiB]" > q
		if ((getline x < a) <= 0)
			print "timestamp, gpu_uuid, gpu_bus_id, pid, process_name, used_gpu_memory [MiB]" > a
		u = "GPU-00000000-0000-0000-0000-000000000000"; b = "00000000:01:00.0"
		for (t = from; t < to && t <= last; t++) {
			m = 2 + (t >= s + 2 ? 2048 : 0)
			printf "%s, 0, %s, %s, 16384 MiB, 300 MiB, %d MiB, %d MiB\n", ts(t), u, b, m, 16084 - m > q
			if (t >= s + 2 && t <= e - 3)
				printf "%s, %s, %s, 5001, train, 2048 MiB\n", ts(t), u, b > a
		}
	}'
}
# period DIR START [MTIME]: a period of the recorder, its links; its logs
# last written at MTIME (seconds) when given.
period() {
	_p=$(date -u -d "@$2" +%Y%m%dT%H%M%S)
	mkdir -p "$1/hours/$_p"
	for _l in query-gpu compute-apps; do
		: >> "$1/hours/$_p/$_l.csv"
		ln -sf "hours/$_p/$_l.csv" "$1/$_p.$_l.csv"
		[ -z "${3:-}" ] || touch -d "@$3" "$1/hours/$_p/$_l.csv"
	done
	pq=$1/hours/$_p/query-gpu.csv pa=$1/hours/$_p/compute-apps.csv
}
# old DIR: three days of hourly periods, the last one ended more than
# two minutes before the job, each holding what no gpumem reads, last
# written at its hour's end; and an old file of another name.
old() {
	_h=$((start - 3720 - (start - 3720) % 3600))
	_k=0
	while [ $_k -lt 72 ]; do
		period "$1" $((_h - _k * 3600))
		echo 'not a log' > "$pq"
		echo 'not a log' > "$pa"
		touch -d "@$((_h - _k * 3600 + 3599))" "$pq" "$pa"
		_k=$((_k + 1))
	done
	echo 'not a log' > "$1/query-gpu.csv.1"
	touch -d "@$((start - 86400))" "$1/query-gpu.csv.1"
}

conf() {
	cat > gpumem-epilog.conf <<EOC
PATH=$PWD/fakebin:\$PATH
GPUMEM=$PWD/fakebin/gpumem
GPUMEM_EPILOG_RECORDING=$PWD/$1
GPUMEM_EPILOG_GRACE=3
GPUMEM_EPILOG_LOG=$PWD/epilog.log
GPUMEM_EPILOG_DRAIN=1
EOC
}
cp "$TESTS/../contrib/slurm/gpumem-epilog" .
# epilog: job 11 on GPU 0, as slurmd runs it; its line without the time.
epilog() {
	: > epilog.log
	: > drained
	: > given
	SLURM_JOB_ID=11 SLURM_JOB_GPUS=0 SLURMD_NODENAME=gpu17 TMPDIR=$PWD/tmp \
	    timeout 30 sh gpumem-epilog 2>> epilog.err ||
	    die "the epilog: exit $?"
	cut -d' ' -f2- epilog.log
	[ -z "$(ls tmp)" ] || die "left in tmp: $(ls tmp)"
}
# iso T: T (seconds) as the Epilog says a time.
iso() {
	date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ
}

echo "# three days of periods; the job's two read, no other"
old rec
# The period the window opens in (started 60 s before the job, a restart),
# and the one after it (started 10 s into the job), written until now; one
# started after the window closed (now - 5) holds no log.
period rec $((start - 60))
nvsmi "$pq" "$pa" $((start - 60)) $((start + 10))
touch -d "@$((start + 10))" "$pq" "$pa"
first=$(ls rec | grep -c .)
period rec $((start + 10))
nvsmi "$pq" "$pa" $((start + 10)) "$now"
period rec $((now - 5))
echo 'not a log' > "$pq"
echo 'not a log' > "$pa"
conf rec
epilog
cat drained
expect_eq "files given to gpumem check" "$(cat given)" "$(for t in $((start - 60)) $((start + 10)); do
	p=$(date -u -d "@$t" +%Y%m%dT%H%M%S)
	echo "$p.compute-apps.csv"
	echo "$p.query-gpu.csv"
done; echo meta)"
expect_eq "files in the recording" "$(ls rec | grep -c .)" $((first + 4))

echo "# the recorder stopped 8 s before the job's end"
mkdir stop
period stop $((start - 60))
nvsmi "$pq" "$pa" $((start - 60)) "$now" $((end + 1 - 8))
touch -d "@$((end + 1 - 8))" "$pq" "$pa"
conf stop
expect_eq "stopped during the job" "$(epilog)" \
    "gpumem: job 11 not checked: the recorder stopped at $(iso $((end + 1 - 8))) (8 s before the job ended) (node gpu17)"
expect_eq "stopped during the job: drained" "$(cat drained)" ""

echo "# the recorder stopped before the job's window"
mkdir gone
old gone
conf gone
last=$((start - 3720 - (start - 3720) % 3600 + 3599))
expect_eq "stopped before the job" "$(epilog)" \
    "gpumem: job 11 not checked: the recorder stopped at $(iso $last) ($((end + 1 - last)) s before the job ended) (node gpu17)"
expect_eq "gpumem check run" "$(cat given)" ""
expect_eq "stopped before the job: drained" "$(cat drained)" ""

echo "# a name with a line feed and an escape sequence"
# In gpumem's own CSV (a quoted field may hold a line feed): the same
# job, its process named so, its row 0 MiB at its end (end - 3).
mkdir name
awk -v s=$start -v e=$end -v now="$now" -v name="$(printf 'tr\nain\033[31mred')" 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (t = s - 60; t < now; t++) {
		m = 2 + (t >= s + 2 ? 2048 : 0)
		printf "%d000000000,,0,0,%d,%d,16384,\n", t, m, 16384 - m
		if (t >= s + 2 && t <= e - 3)
			printf "%d000000000,,0,5001,%d,,,\"%s\"\n", t,
			    t < e - 3 ? 2048 : 0, name
	}
}' > name/node.csv
conf name
: > syslog
epilog
cat drained
expect_eq "syslog lines" "$(wc -l < syslog)" 1
expect_eq "log lines" "$(wc -l < epilog.log)" 1
! grep -q "$(printf '\033')" epilog.log syslog || die "an ESC byte in the log"
