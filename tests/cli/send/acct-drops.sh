# gpumem send over TCP counts what the collector acknowledged, not what it
# wrote.  A collector (python3, below) takes K bytes of each of its first
# connections and then stops reading; once nothing more arrives it says
# how many bytes reached it (read, or queued unread in its socket: its
# host acknowledged those) and closes.  gpumem send must count as sent
# exactly the whole frames that reached the collector, say the rest as
# not acknowledged, and exit 2: reading a file (all of it written into
# the socket before the collector closes: counted at the end), and live
# from a FIFO fed in parts, one for each connection (it reconnects after
# each close).  A collector that reads everything gets "sent N records",
# exit 0.
# alone: the collector takes half a second without news for the end of a send
. "$TESTS/lib.sh"
command -v python3 > /dev/null || skip "no python3"
cat > coll.py <<'PY'
import fcntl, socket, struct, sys, termios, time
takes = [int(k) for k in sys.argv[2:]]
ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", 0))
ls.listen(8)
with open(sys.argv[1], "w") as f:
    f.write("%d\n" % ls.getsockname()[1])
out = open(sys.argv[1], "a")
def queued(c):
    return struct.unpack("i", fcntl.ioctl(c, termios.FIONREAD, b"\0\0\0\0"))[0]
while True:
    c, _ = ls.accept()
    k = takes.pop(0) if takes else -1
    got = 0
    while k < 0 or got < k:
        b = c.recv(65536 if k < 0 else min(65536, k - got))
        if not b:
            break
        got += len(b)
    if got == k:
        # Stop reading; wait until nothing more arrives (and the last
        # delayed acks are out), then count what is queued unread.
        last, still = -1, 0
        while still < 5:
            time.sleep(0.1)
            q = queued(c)
            still = still + 1 if q == last else 0
            last = q
        got += last
    out.write("%d\n" % got)
    out.flush()
    c.close()
PY
# One GPU, one process: every frame one record, 20 + 20 bytes.
n=20000
awk -v n=$n 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (i = 0; i < n; i++)
		printf "%d000000000,127.0.0.1,0,7,%d,1000,81920,\n", 1767225600 + i, i % 5000
}' > in.csv

# coll NAME TAKES...: start a collector taking TAKES bytes of its first
# connections (the rest read whole); its port in $port, its counts in
# NAME.got, one a line for each connection, as they end.
coll() {
	_n=$1
	shift
	python3 coll.py $_n.port "$@" &
	bg_add $!
	coll=$!
	wait_for 30 test -s $_n.port || die "the collector did not start"
	port=$(head -n 1 $_n.port)
}
# coll_stop NAME CONNS: once the collector has counted CONNS connections
# (it writes a connection's count when it has read its end, which may be
# after gpumem-send exited), stop it.
coll_stop() {
	wait_for 30 conns $1 $2 || die "$1: $2 connections not counted: $(cat $1.port)"
	kill $coll
	wait $coll 2> /dev/null || :
	tail -n +2 $1.port > $1.got
}
conns() {
	[ $(($(wc -l < $1.port) - 1)) -ge $2 ]
}
# check NAME CONNS LOST: what NAME.err says, against what the collector
# got in CONNS connections, LOST of them cut.
check() {
	expect_eq "$1: connections" $(wc -l < $1.got) $2
	frames=$(awk '{ n += int($1 / 40) } END { print n }' $1.got)
	lost=$(($n - $frames))
	[ $lost -gt 0 ] || die "$1: nothing lost: $(cat $1.got)"
	s=s
	[ $3 -gt 1 ] || s=
	grep -q "^gpumem-send: tcp://127.0.0.1:$port: $lost records ($(($lost * 40)) bytes) not acknowledged by the collector, lost with $3 connection$s\$" $1.err ||
		die "$1: want $lost lost: $(cat $1.err) / $(cat $1.got)"
	grep -q "^gpumem-send: sent $frames records in $frames frames ($(($frames * 40)) bytes) to " $1.err ||
		die "$1: want $frames sent: $(cat $1.err)"
	! grep -q "dropped" $1.err || die "$1: $(cat $1.err)"
}

# A file: everything is written before the collector closes.
coll file 1010
rc=0
gpumem-send -v tcp://127.0.0.1:$port in.csv 2> file.err || rc=$?
coll_stop file 1
expect_eq "file: exit status" $rc 2
check file 1 1

# Live: each part after the collector closed the connection before.
coll live 1010 2000 4040
mkfifo in.fifo
gpumem-send -v tcp://127.0.0.1:$port < in.fifo 2> live.err &
send=$!
bg_add $send
exec 3> in.fifo
head -n 5001 in.csv >&3
wait_for 30 conns live 1 || die "no first connection: $(cat live.err)"
sed -n 5002,10001p in.csv >&3
wait_for 30 conns live 2 || die "no second connection: $(cat live.err)"
sed -n 10002,15001p in.csv >&3
wait_for 30 conns live 3 || die "no third connection: $(cat live.err)"
sed -n '15002,$p' in.csv >&3
exec 3>&-
rc=0
wait $send || rc=$?
coll_stop live 4
expect_eq "live: exit status" $rc 2
expect_eq "live: connections lost" "$(grep -c 'connection lost' live.err)" 3
check live 4 3

# A collector that reads everything.
coll whole
rc=0
gpumem-send -v tcp://127.0.0.1:$port in.csv 2> whole.err || rc=$?
coll_stop whole 1
expect_eq "whole: exit status" $rc 0
expect_eq "whole: collector got" "$(cat whole.got)" $(($n * 40))
grep -q "^gpumem-send: sent $n records in $n frames ($(($n * 40)) bytes) to " whole.err ||
	die "$(cat whole.err)"
! grep -q "not acknowledged" whole.err || die "$(cat whole.err)"
