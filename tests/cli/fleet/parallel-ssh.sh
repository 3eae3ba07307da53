# contrib/parallel/gpumem-fleet maps node logs over GNU parallel and
# reduces: on local cores, and over ssh to a private sshd on 127.0.0.1
# (its own port, host and client keys and config, all here; stopped by
# pid whatever happens).  The logs go there and the tables come back
# (--transferfile, --return, --cleanup, relative paths); the reduced
# task table, verdict and reports are those of all the logs read at once.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] ||
	skip "sshd and GNU parallel do not depend on the build variant (fleet/reduce.sh runs the reduce under the sanitizers)"
for p in parallel rsync ssh ssh-keygen; do
	command -v $p > /dev/null || skip "skipped: $p is not installed"
done
sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || skip "skipped: sshd is not installed"
fleet="$TESTS/../contrib/parallel/gpumem-fleet"
GPUMEM=$(command -v gpumem)
export GPUMEM
for n in 1 2 3; do
	gpumem-synth -s demo --host node$n --seed $n -o node$n.rec
done
gpumem-synth -s leak --host node4 -o node4.rec
gpumem-tasks -q node?.rec > all.csv
rc=0
gpumem-check -q node?.rec --json all.json --junit all.xml 2> /dev/null || rc=$?
expect_eq "check of the logs: exit" $rc 1
sorted() {
	head -n 1 "$1"
	tail -n +2 "$1" | sort
}
sorted all.csv > all.sorted
same() {
	sorted "$1/tasks.csv" > "$1.sorted"
	cmp all.sorted "$1.sorted" || die "$1: task table differs"
	cmp all.json "$1/check.json" || die "$1: check.json differs"
	cmp all.xml "$1/check.xml" || die "$1: check.xml differs"
	[ -s "$1/report.html" ] || die "$1: no report"
}

# Local cores.
rc=0
sh "$fleet" -j 2 -o local node?.rec 2> local.err || rc=$?
expect_eq "local: exit" $rc 1
same local
rm -f node?.rec.tasks.csv node?.rec.usage.csv

# A private sshd.
mkdir -p /run/sshd
ssh-keygen -q -t ed25519 -N '' -f host_key
ssh-keygen -q -t ed25519 -N '' -f client_key
cp client_key.pub authorized_keys
user=$(id -un)
sshd_pid=
port=
stop() {
	# The shared connection first (ControlPersist), then sshd.
	[ -z "$port" ] || ssh -F ssh_config -p "$port" -O exit 127.0.0.1 \
	    2> /dev/null || :
	[ -z "$sshd_pid" ] || kill "$sshd_pid" 2> /dev/null || :
}
trap stop EXIT
cat > ssh_config <<EOC
Host 127.0.0.1
	IdentityFile $PWD/client_key
	IdentitiesOnly yes
	UserKnownHostsFile $PWD/known_hosts
	StrictHostKeyChecking no
	BatchMode yes
	LogLevel ERROR
	ControlMaster auto
	ControlPath $PWD/cm-%p
	ControlPersist 30
EOC
first=$((20000 + $$ % 20000))
for try in 1 2 3 4 5; do
	port=$((first + try))
	cat > sshd_config <<EOC
Port $port
ListenAddress 127.0.0.1
HostKey $PWD/host_key
PidFile $PWD/sshd.pid
AuthorizedKeysFile $PWD/authorized_keys
StrictModes no
UsePAM no
UseDNS no
PermitRootLogin prohibit-password
EOC
	"$sshd" -D -f "$PWD/sshd_config" -E "$PWD/sshd.log" &
	sshd_pid=$!
	if wait_for 10 ssh -F ssh_config -p $port "$user@127.0.0.1" true 2> /dev/null; then
		break
	fi
	stop
	sshd_pid=
	port=
done
[ -n "$sshd_pid" ] || die "sshd did not start: $(tail -n 3 sshd.log)"

# Over ssh: the logs are copied into remote/ (the host's --workdir: it is
# this machine) and the tables come back beside them.
mkdir remote
rc=0
sh "$fleet" -j 2 -S "2/$user@127.0.0.1:$port" -s "ssh -F $PWD/ssh_config" \
    -w "$PWD/remote" -o viassh node?.rec 2> viassh.err || rc=$?
expect_eq "ssh: exit" $rc 1
same viassh
for n in 1 2 3 4; do
	[ -s node$n.rec.tasks.csv ] || die "node$n: no table came back"
	[ -s node$n.rec.usage.csv ] || die "node$n: no curve came back"
	[ -s node$n.rec ] || die "node$n: the original log is gone"
done
expect_eq "left on the host" "$(find remote -type f | wc -l | tr -d ' ')" 0
# The jobs ran on the host: sshd let the client in.
grep -q 'Accepted publickey' sshd.log || die "no ssh session: $(tail -n 3 sshd.log)"
stop
wait "$sshd_pid" 2> /dev/null || :
sshd_pid=
cat viassh.err
exit 0
