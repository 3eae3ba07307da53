# contrib/slurm/gpumem-epilog as slurmd's Epilog on a real one-node Slurm
# cluster (tests/tools/slurmcluster.sh), the node recorded as a node's
# recording service does: two nvidia-smi loops (the stand-in: a process
# named gpujob holds 2048 MiB on GPU 0, given back 300 ms after its end)
# writing query-gpu.csv and compute-apps.csv.  Each job's line is checked
# exactly: a job before there is a recording is not checked; a job whose
# process ended holds nothing after it; a job that leaves a process
# behind (setsid) left 2048 MiB on GPU 0, and the node stays up, as it
# does when the check hangs (cut after GPUMEM_EPILOG_TIMEOUT); with
# GPUMEM_EPILOG_DRAIN=1 the next such job drains the node with that
# reason, and the first job's leftover, there before this job started,
# is not blamed on it.
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
export FAKE_GPU_COMM=gpujob FAKE_GPU_MIB=2048 FAKE_GPU_RELEASE_MS=300
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
chmod +x fakebin/job
cp "$TESTS/../contrib/slurm/gpumem-epilog" .
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
slurm_start "Epilog=$PWD/gpumem-epilog"
trap stop_all EXIT
# The machine's names and paths, out of what is shown.
host="s|$PWD|DIR|; s|(node $slurm_node)|(node NODE)|"

# run WHAT: a job that runs WHAT; waits until it and its Epilog are done
# and prints the Epilog's line (without its time).
_done() {
	scontrol -o show job "$1" | grep -q -e ' JobState=COMPLETED ' \
	    -e ' JobState=FAILED '
}
run() {
	_id=$(sbatch --parsable -o /dev/null --wrap "$1")
	wait_for 60 _done "$_id" || die "job $_id: $(scontrol -o show job "$_id")"
	wait_for 10 grep -q "job $_id " epilog.log ||
	    die "job $_id: no line from the Epilog"
	grep "job $_id " epilog.log | cut -d' ' -f2- | sed "$host"
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
run "$PWD/fakebin/job leave"
expect_eq "node after a leftover, without drain" "$(sinfo -h -o %t)" idle
# A check that hangs is cut at GPUMEM_EPILOG_TIMEOUT; the node stays up.
printf '#!/bin/sh\nexec sleep 60\n' > fakebin/hang
chmod +x fakebin/hang
conf 0 "GPUMEM=$PWD/fakebin/hang GPUMEM_EPILOG_TIMEOUT=1"
run "$PWD/fakebin/job"
expect_eq "node after a check that hung" "$(sinfo -h -o %t)" idle
conf 1
run "$PWD/fakebin/job leave"
sinfo -h -o '%t %E'
scontrol -o show node | grep -o 'Reason=[^[]*'
sed "$host" syslog
