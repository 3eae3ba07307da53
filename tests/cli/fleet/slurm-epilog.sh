# contrib/slurm/gpumem-epilog as slurmd's Epilog on a real one-node Slurm
# cluster (tests/tools/slurmcluster.sh), the node recorded as a node's
# recording service does: two nvidia-smi loops (the stand-in: a process
# named gpujob holds 2048 MiB on the GPU its CUDA_VISIBLE_DEVICES names,
# given back 300 ms after its end) writing query-gpu.csv and compute-apps.csv.  Each job's line is checked
# exactly: a job before there is a recording is not checked; a job whose
# process ended holds nothing after it; a job that leaves a process
# behind (setsid) left 2048 MiB on GPU 0, and the node stays up, as it
# does when the check hangs (cut after GPUMEM_EPILOG_TIMEOUT); with
# GPUMEM_EPILOG_DRAIN=1 the next such job drains the node with that
# reason, and the first job's leftover, there before this job started,
# is not blamed on it.  That is two jobs at once on the node's two GPUs:
# the other one, which ran from before the leftover started until after
# it, is judged on its own GPU only: it left nothing, and the node is
# drained only when the leaking job ends.  The node has two GPUs as a
# GRES (device nodes made here), each job asks for one, and the leaking jobs write into their name,
# comment, work directory and output path what would steer an Epilog that
# read `scontrol show job` (EndTime=2036-..., StartTime=TZ= naming a
# FIFO): the Epilog reads squeue's numbers and SLURM_JOB_GPUS instead.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] ||
	skip "the Epilog is a script around gpumem check, which the sanitizer cases of check cover"
. "$TESTS/tools/slurmcluster.sh"
mkdir fakebin
# logger: what syslog would get.
cat > fakebin/logger <<EOS
#!/bin/sh
echo "\$*" >> "$PWD/syslog"
EOS
chmod +x fakebin/logger
# A process named gpujob: what the stand-in nvidia-smi counts.
ln -s "$(command -v sleep)" fakebin/gpujob
export FAKE_GPU_COMM=gpujob FAKE_GPU_MIB=2048 FAKE_GPU_RELEASE_MS=300 FAKE_GPU_COUNT=2
# job [leave]: what a job runs: a gpujob, until the recording lists it
# (samples are sparse on a loaded machine); with leave, it is left behind
# (setsid: out of the job's process tree, which Slurm ends).
cat > fakebin/job <<EOS
#!/bin/sh
if [ "\${1:-}" = leave ]; then
	setsid $PWD/fakebin/gpujob 300 < /dev/null > /dev/null 2>&1 &
else
	$PWD/fakebin/gpujob 300 &
fi
p=\$!
echo \$p >> $PWD/strays
n=0
until grep -q ", \$p, gpujob, " $PWD/recording/compute-apps.csv; do
	n=\$((n + 1))
	[ \$n -lt 600 ] || break
	sleep 0.1
done
[ "\${1:-}" = leave ] || kill \$p
EOS
# The two jobs at once: the clean one starts, then the leaking one leaves
# its process, then the clean one ends; the leaking one ends on "go".
# until_file FILE: wait for FILE (at most 60 s).
cat > fakebin/until_file <<EOS
#!/bin/sh
n=0
until [ -e "\$1" ] || [ \$n -ge 600 ]; do
	n=\$((n + 1))
	sleep 0.1
done
EOS
cat > fakebin/clean <<EOS
#!/bin/sh
$PWD/fakebin/gpujob 300 &
p=\$!
echo \$p >> $PWD/strays
n=0
until grep -q ", \$p, gpujob, " $PWD/recording/compute-apps.csv || [ \$n -ge 600 ]; do
	n=\$((n + 1))
	sleep 0.1
done
touch $PWD/clean.up
$PWD/fakebin/until_file $PWD/leaky.left
kill \$p
EOS
cat > fakebin/leaky <<EOS
#!/bin/sh
$PWD/fakebin/until_file $PWD/clean.up
echo \$CUDA_VISIBLE_DEVICES > $PWD/leaky.gpu
$PWD/fakebin/job leave
touch $PWD/leaky.left
$PWD/fakebin/until_file $PWD/go
EOS
chmod +x fakebin/job fakebin/until_file fakebin/clean fakebin/leaky
cp "$TESTS/../contrib/slurm/gpumem-epilog" .
mkfifo fifo
forged="x EndTime=2036-01-01T00:00:00 StartTime=TZ=\"$PWD/fifo\"2026-01-01T00:00:00"
mkdir -p "$PWD/$forged"
# The configuration beside it, as slurmd runs it (no PATH of its own).
conf() {
	cat > gpumem-epilog.conf <<EOC
PATH=$PWD/fakebin:$(dirname "$(command -v gpumem)"):\$PATH
GPUMEM_EPILOG_RECORDING=$PWD/recording
GPUMEM_EPILOG_GRACE=3
GPUMEM_EPILOG_LOG=$PWD/epilog.log
GPUMEM_EPILOG_DRAIN=$1
${2:-}
EOC
}
conf 0
strays=
recorder=
stop_all() {
	# shellcheck disable=SC2086
	[ -z "$strays$recorder" ] || kill $strays $recorder 2> /dev/null || :
	[ ! -s strays ] || kill $(cat strays) 2> /dev/null || :
	: > strays
	slurm_stop
}
mkdir -p "$slurm_dir"
mknod gpu0 c 1 3 && mknod gpu1 c 1 3 || skip "no device node may be made here"
echo "Name=gpu File=$PWD/gpu[0-1]" > "$slurm_dir/gres.conf"
slurm_node_opts=Gres=gpu:2
slurm_start "Epilog=$PWD/gpumem-epilog
GresTypes=gpu"
trap stop_all EXIT
# The machine's names and paths, out of what is shown.
host="s|$PWD|DIR|; s|(node $slurm_node)|(node NODE)|; s|(pid [0-9]* |(pid N |"

# run WHAT [SBATCH OPTION...]: a job on the GPU that runs WHAT; waits
# until it and its Epilog are done and prints the Epilog's line (without
# its time).
_done() {
	scontrol -o show job "$1" | grep -q -e ' JobState=COMPLETED ' \
	    -e ' JobState=FAILED '
}
# line ID: the Epilog's line for job ID, once it and the job are done.
line() {
	wait_for 60 _done "$1" || die "job $1: $(scontrol -o show job "$1")"
	wait_for 10 grep -q "job $1 " epilog.log ||
	    die "job $1: no line from the Epilog"
	grep "job $1 " epilog.log | cut -d' ' -f2- | sed "$host"
}
run() {
	_what=$1
	shift
	line "$(sbatch --parsable -o /dev/null --gres=gpu:1 "$@" --wrap "$_what")"
}

run true

# The node's recording, started now.
mkdir recording
PATH=$TESTS/tools/fakebin:$PATH
nvidia-smi --query-gpu=timestamp,index,uuid,pci.bus_id,memory.total,memory.reserved,memory.used,memory.free \
    --format=csv -lms 250 > recording/query-gpu.csv &
recorder=$!
nvidia-smi --query-compute-apps=timestamp,gpu_uuid,gpu_bus_id,pid,process_name,used_gpu_memory \
    --format=csv -lms 250 > recording/compute-apps.csv &
recorder="$recorder $!"
wait_for 60 grep -q , recording/compute-apps.csv ||
	die "the recording did not start"

run "$PWD/fakebin/job"
run "$PWD/fakebin/job leave" -J "$forged" --comment "$forged" \
    -D "$PWD/$forged" -o "$PWD/$forged/out"
expect_eq "node after a leftover, without drain" "$(sinfo -h -o %t)" idle
# A check that hangs is cut at GPUMEM_EPILOG_TIMEOUT; the node stays up.
printf '#!/bin/sh\nexec sleep 60\n' > fakebin/hang
chmod +x fakebin/hang
conf 0 "GPUMEM=$PWD/fakebin/hang GPUMEM_EPILOG_TIMEOUT=1"
run "$PWD/fakebin/job"
expect_eq "node after a check that hung" "$(sinfo -h -o %t)" idle
conf 1
clean=$(sbatch --parsable -o /dev/null --gres=gpu:1 --wrap "$PWD/fakebin/clean")
leaky=$(sbatch --parsable -o /dev/null --gres=gpu:1 -J "$forged" \
    --comment "$forged" --wrap "$PWD/fakebin/leaky")
line "$clean"
case $(sinfo -h -o %t) in
drain*|drng*) die "drained after the clean job: $(sinfo -h -o '%t %E')" ;;
esac
touch go
line "$leaky"
expect_eq "the leaking job's GPU" "$(cat leaky.gpu)" 1
sinfo -h -o '%t %E'
scontrol -o show node | grep -o 'Reason=[^[]*'
sed "$host" syslog
