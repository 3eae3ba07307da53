# contrib/slurm/gpumem-epilog as slurmd runs it, with stand-ins for squeue
# and scontrol on PATH and a two-GPU recording built here (awk), so that
# the truth is known: job 11 ran on GPU 0 and leaked 2048 MiB there, job 12
# ran on GPU 1 and gave its 1024 MiB back.
#   - scontrol show job prints what users write (comment, name, work
#     directory, output paths holding EndTime=2036-..., StartTime=TZ=
#     naming a FIFO): the Epilog neither waits for 2036 nor opens the FIFO,
#     checks the job's real window (the arguments gpumem check got, the
#     meta), names job 11 and drains the node for it;
#   - only the job's GPUs are judged: job 12 left nothing on GPU 1 although
#     GPU 0 holds job 11's leak (GPUMEM_EPILOG_GPUS=all blames it);
#   - times squeue gives that are not two whole seconds, start <= end <=
#     now, are refused, said, never used;
#   - a squeue or a gpumem check that hangs is cut within the deadline; a
#     step that hangs outside them (mktemp) is cut by the deadline itself;
#     a TERM leaves no temporary directory;
#   - on GPU 1, a process of another job (its cgroup says job_99) running
#     past job 12's end is not job 12's (when a cgroup can be made here).
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] ||
	skip "the Epilog is a script around gpumem check, which the sanitizer cases of check cover"
mkdir fakebin rec tmp
now=$(date +%s)
t0=$((now - 40))
start=$((now - 30)) end=$((now - 15))
mkfifo fifo
# What users may write into a job's fields, all shown by scontrol.
forged="x EndTime=2036-01-01T00:00:00 StartTime=TZ=\"$PWD/fifo\"2026-01-01T00:00:00"
cat > fakebin/scontrol <<EOS
#!/bin/sh
case \$1 in
update) echo "\$*" >> $PWD/drained ;;
*) echo 'JobId='"\$4"' JobName=$forged UserId=u(1) JobState=COMPLETING StartTime=$(date -u -d @$start +%FT%T) EndTime=$(date -u -d @$end +%FT%T) WorkDir=/home/u/$forged Comment=$forged StdErr=/home/u/$forged StdIn=/dev/null StdOut=/home/u/$forged' ;;
esac
EOS
# squeue: the job's start and end as asked for (SLURM_TIME_FORMAT=%s,
# -o '%S %e'), or \$FAKE_SQUEUE when set; it hangs with FAKE_SQUEUE=hang.
cat > fakebin/squeue <<EOS
#!/bin/sh
[ "\$*" = "-h -t all -j \$SLURM_JOB_ID -o %S %e" ] &&
    [ "\$SLURM_TIME_FORMAT" = %s ] || { echo "squeue: bad call: \$*" >&2; exit 1; }
case \${FAKE_SQUEUE-} in
hang) exec sleep 100 ;;
'') echo "$start $end" ;;
*) printf '%s\n' "\$FAKE_SQUEUE" ;;
esac
EOS
# gpumem, its arguments kept.
cat > fakebin/gpumem <<EOS
#!/bin/sh
echo "\$*" > $PWD/args
cat "\$(eval echo \\\${\$#})/meta" > $PWD/meta
[ -z "\${FAKE_HANG-}" ] || exec sleep 100
exec "$(command -v gpumem)" "\$@"
EOS
chmod +x fakebin/*
printf '#!/bin/sh\nsleep 100\n' > hangbin
chmod +x hangbin

# The other job's process, in a cgroup named job_99, when one can be made.
sleep 100 &
other=$!
bg_add $other
# Made in the cgroup v1 freezer hierarchy, or else in the v2 one, and
# removed when the case ends (its process killed first).
cg= procs=
if [ -w /sys/fs/cgroup/freezer/tasks ]; then
	cg=/sys/fs/cgroup/freezer/gpumemtest.$$ procs=tasks
elif [ -w /sys/fs/cgroup/cgroup.procs ]; then
	cg=/sys/fs/cgroup/gpumemtest.$$ procs=cgroup.procs
fi
if [ -n "$cg" ] && mkdir -p "$cg/job_99" 2> /dev/null; then
	trap 'kill $bg_pids 2> /dev/null || :; wait; rmdir "$cg/job_99" "$cg" 2> /dev/null || :' EXIT
	echo $other > "$cg/job_99/$procs" 2> /dev/null || other=
else
	other=
fi

# The recording, a sample a second: GPU 0: job 11's pid 5001 holds
# 2048 MiB from start+2 to end-3, and the memory stays; GPU 1: job 12's
# pid 5002 holds 1024 MiB over the same span and gives it back; the other
# job's process holds 512 MiB on GPU 1 from start+5 to the last sample.
awk -v t0=$t0 -v n=40 -v s=$start -v e=$end -v other="$other" '
function ts(t) { return strftime("%Y/%m/%d %H:%M:%S.000", t, 1) }
BEGIN {
	q = "rec/query-gpu.csv"; a = "rec/compute-apps.csv"
	print "timestamp, index, uuid, pci.bus_id, memory.total [MiB], memory.reserved [MiB], memory.used [MiB], memory.free [MiB]" > q
	print "timestamp, gpu_uuid, gpu_bus_id, pid, process_name, used_gpu_memory [MiB]" > a
	u0 = "GPU-00000000-0000-0000-0000-000000000000"; b0 = "00000000:01:00.0"
	u1 = "GPU-11111111-1111-1111-1111-111111111111"; b1 = "00000000:02:00.0"
	for (t = t0; t < t0 + n; t++) {
		on = t >= s + 2 && t <= e - 3
		o = other != "" && t >= s + 5
		m0 = 2 + (t >= s + 2 ? 2048 : 0)
		m1 = 2 + (on ? 1024 : 0) + (o ? 512 : 0)
		printf "%s, 0, %s, %s, 16384 MiB, 300 MiB, %d MiB, %d MiB\n", ts(t), u0, b0, m0, 16084 - m0 > q
		printf "%s, 1, %s, %s, 16384 MiB, 300 MiB, %d MiB, %d MiB\n", ts(t), u1, b1, m1, 16084 - m1 > q
		if (on) {
			printf "%s, %s, %s, 5001, train, 2048 MiB\n", ts(t), u0, b0 > a
			printf "%s, %s, %s, 5002, train, 1024 MiB\n", ts(t), u1, b1 > a
		}
		if (o)
			printf "%s, %s, %s, %d, serve, 512 MiB\n", ts(t), u1, b1, other > a
	}
}'

conf() {
	cat > gpumem-epilog.conf <<EOC
PATH=$PWD/fakebin:\$PATH
GPUMEM=$PWD/fakebin/gpumem
GPUMEM_EPILOG_RECORDING=$PWD/rec
GPUMEM_EPILOG_GRACE=3
GPUMEM_EPILOG_LOG=$PWD/epilog.log
GPUMEM_EPILOG_DRAIN=1
${1:-}
EOC
}
cp "$TESTS/../contrib/slurm/gpumem-epilog" .
conf
# epilog JOB GPUS: run it as slurmd would; print its line and how long it
# took (seconds, 0 when under one).
epilog() {
	: > epilog.log
	_t=$(date +%s)
	SLURM_JOB_ID=$1 SLURM_JOB_GPUS=$2 SLURMD_NODENAME=gpu17 TMPDIR=$PWD/tmp \
	    timeout 30 sh gpumem-epilog 2>> epilog.err ||
	    die "job $1: the epilog: exit $?"
	cut -d' ' -f2- epilog.log | sed 's/more than [0-9]* s/more than N s/'
	_took=$(($(date +%s) - _t))
	[ -z "$(ls tmp)" ] || die "job $1: left in tmp: $(ls tmp)"
}

echo "# forged fields; job 11 leaked on GPU 0"
epilog 11 0
expect_eq "window" "$(cat args)" "check -q --gpu 0 --since @$((start - 3)) --until @$((end + 4)) --json $(sed -n 's/.*--json \([^ ]*\) .*/\1/p' args) -- $(sed 's/.* //' args)"
expect_eq "meta" "$(cat meta)" "start_ns: ${start}000000000
end_ns: $((end + 1))000000000"
cat drained
[ "$_took" -le 3 ] || die "job 11 took $_took s"
echo "# job 12 on GPU 1: its own GPU only"
epilog 12 1
echo "# job 12, every GPU of the node"
conf GPUMEM_EPILOG_GPUS=all
epilog 12 0
conf
echo "# no GPU given"
epilog 13 ''
echo "# what squeue says that is not a window"
for bad in "$start" "$start $end x" "$end $start" "$start $((now + 3600))" \
    "-5 $end" "2026-12-01T00:00:00 $end" "$start 99999999999999" "Unknown Unknown"; do
	FAKE_SQUEUE=$bad epilog 11 0
done
echo "# hangs, cut (the steps' bounds: what is left of the deadline)"
conf GPUMEM_EPILOG_DEADLINE=4
FAKE_SQUEUE=hang epilog 11 0
[ "$_took" -le 4 ] || die "squeue hang: took $_took s"
FAKE_HANG=1 epilog 11 0
[ "$_took" -le 4 ] || die "check hang: took $_took s"
cp hangbin fakebin/mktemp
epilog 11 0
[ "$_took" -le 5 ] || die "mktemp hang: took $_took s"
rm fakebin/mktemp
echo "# a TERM"
conf GPUMEM_EPILOG_DEADLINE=60
: > epilog.log
FAKE_SQUEUE=hang SLURM_JOB_ID=11 SLURM_JOB_GPUS=0 SLURMD_NODENAME=gpu17 \
    TMPDIR=$PWD/tmp sh gpumem-epilog 2>> epilog.err &
epi=$!
wait_for 20 sh -c 'ls tmp | grep -q .' || die "no temporary directory"
pkill -TERM -P $epi -x timeout
wait $epi
cut -d' ' -f2- epilog.log
[ -z "$(ls tmp)" ] || die "TERM: left in tmp: $(ls tmp)"
if [ -n "$other" ]; then
	echo "# job 12 and another job's process on GPU 1"
	conf
	epilog 12 1
	kill $other
	wait $other 2> /dev/null || :
	sleep 0.1
	echo "# the same, that process gone: job 12's"
	: > drained
	epilog 12 1 | sed "s/(pid $other /(pid OTHER /"
	cat drained
else
	echo "# job 12 and another job's process on GPU 1"
	echo "gpumem: job 12 left no GPU memory (node gpu17)"
	echo "# the same, that process gone: job 12's"
	echo "gpumem: job 12 left 512 MiB on GPU 1 (pid OTHER \"serve\") (node gpu17)"
	echo "update nodename=gpu17 state=drain reason=gpumem: job 12 left 512 MiB on GPU 1"
fi
