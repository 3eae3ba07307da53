# SPDX-License-Identifier: ISC
# tests/tools/slurmcluster.sh: a one-node Slurm cluster for a test case,
# sourced after lib.sh (. "$TESTS/tools/slurmcluster.sh").
#
#   slurm_start [SLURM.CONF LINES]   munged, slurmctld and slurmd of
#                                    Debian's slurm-wlm, all their files
#                                    in $PWD/slurm, on 127.0.0.1, ports
#                                    of their own; extra slurm.conf lines
#                                    (Epilog=...) as the argument
#   slurm_stop                       stop the three by pid (also on EXIT)
#
# slurm_node_opts, when set before slurm_start, goes on the node's line
# (Gres=gpu:2, with a gres.conf the case writes into $slurm_dir).
#
# slurm_node is then the node's name (hostname -s).
#
# The case is skipped ("skipped: slurm-wlm absent") when a program is
# missing.  The clients find the cluster through SLURM_CONF (exported).
# Facts this follows: tests/tools/fleet-test-facts.md (no cgroups, no
# systemd, no accounting; a stopped daemon is a zombie until PID 1 reaps
# it, so state Z counts as gone).
for _sc_p in munged mungekey slurmctld slurmd sbatch scontrol sinfo; do
	command -v $_sc_p > /dev/null ||
	    [ -x /usr/sbin/$_sc_p ] || skip "skipped: slurm-wlm absent"
done
PATH=$PATH:/usr/sbin
slurm_dir=$PWD/slurm
SLURM_CONF=$slurm_dir/slurm.conf
export SLURM_CONF
_sc_pids=

# _sc_gone PID: the process is gone, or a zombie waiting to be reaped.
_sc_gone() {
	[ -r "/proc/$1/stat" ] || return 0
	_sc_st=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2> /dev/null) || return 0
	[ "$_sc_st" = Z ] || [ -z "$_sc_st" ]
}

slurm_stop() {
	for _sc_f in slurmd slurmctld munged; do
		[ -s "$slurm_dir/$_sc_f.pid" ] || continue
		_sc_pid=$(cat "$slurm_dir/$_sc_f.pid")
		kill "$_sc_pid" 2> /dev/null || :
		wait_for 10 _sc_gone "$_sc_pid" || kill -9 "$_sc_pid" 2> /dev/null || :
		rm -f "$slurm_dir/$_sc_f.pid"
	done
}

_sc_idle() {
	sinfo -h -o %t 2> /dev/null | grep -qx idle
}

slurm_start() {
	trap slurm_stop EXIT
	mkdir -p "$slurm_dir/spool" "$slurm_dir/state" "$slurm_dir/munge"
	chmod 755 "$slurm_dir/munge"
	mungekey --create --keyfile="$slurm_dir/munge.key" 2> /dev/null ||
	    die "mungekey failed"
	chmod 600 "$slurm_dir/munge.key"
	# --force: the runner's temporary directory is mode 700, and munged
	# refuses a socket below one that is not searchable by all.
	munged --force --key-file="$slurm_dir/munge.key" \
	    --socket="$slurm_dir/munge/socket" \
	    --pid-file="$slurm_dir/munged.pid" \
	    --log-file="$slurm_dir/munged.log" \
	    --seed-file="$slurm_dir/munged.seed" ||
	    die "munged did not start: $(tail -n 3 "$slurm_dir/munged.log")"
	_sc_host=$(hostname -s)
	# The node as slurmd sees it, on loopback.
	_sc_node=$(slurmd -C | sed -n 's/ *$//; /^NodeName=/p')
	slurm_node=$(echo "$_sc_node" | sed 's/^NodeName=\([^ ]*\).*/\1/')
	_sc_first=$((30000 + $$ % 15000 * 2))
	for _sc_try in 1 2 3 4 5; do
		_sc_port=$((_sc_first + 2 * _sc_try))
		cat > "$SLURM_CONF" <<EOC
ClusterName=gpumemtest
SlurmctldHost=$_sc_host(127.0.0.1)
SlurmctldPort=$_sc_port
SlurmdPort=$((_sc_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$slurm_dir/munge/socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd.pid
SlurmctldLogFile=$slurm_dir/slurmctld.log
SlurmdLogFile=$slurm_dir/slurmd.log
ReturnToService=2
$_sc_node NodeAddr=127.0.0.1 State=UNKNOWN ${slurm_node_opts:-}
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
${1:-}
EOC
		slurmctld -c -f "$SLURM_CONF" &&
		    slurmd -f "$SLURM_CONF" &&
		    wait_for 20 _sc_idle && return 0
		slurm_stop
		munged --force --key-file="$slurm_dir/munge.key" \
		    --socket="$slurm_dir/munge/socket" \
		    --pid-file="$slurm_dir/munged.pid" \
		    --log-file="$slurm_dir/munged.log" \
		    --seed-file="$slurm_dir/munged.seed" || die "munged did not restart"
	done
	die "slurm did not start: $(tail -n 3 "$slurm_dir/slurmctld.log" "$slurm_dir/slurmd.log")"
}
