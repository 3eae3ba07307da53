# TCP to a collector that accepts but never reads (python3: a small
# receive buffer, one connection accepted, then no more): once the
# socket buffers are full a write waits --send-timeout at most, then the
# connection counts as broken (said, its unacknowledged frames counted
# lost), and without a new one after --retry-for send gives up (exit 2)
# instead of blocking for ever.  Bounded: 60 s at most, ~5 s here.
. "$TESTS/lib.sh"
command -v python3 > /dev/null || skip "no python3"
gpumem-synth -s random --duration 3h -o big.csv
cat > deaf.py <<'PY'
import socket, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.bind(("127.0.0.1", 0))
s.listen(1)
print(s.getsockname()[1], flush=True)
c, _ = s.accept()
s.close()
time.sleep(120)
PY
python3 deaf.py > port &
bg_add $!
wait_for 10 test -s port || die "the listener did not start"
port=$(cat port)
rc=0
timeout 60 gpumem-send --send-timeout 1s --retry-for 1s \
    tcp://127.0.0.1:$port big.csv 2> err.txt || rc=$?
expect_eq "exit" $rc 2
grep -q "^gpumem-send: tcp://127.0.0.1:$port: connection lost (the collector took nothing for 1 s: see --send-timeout); reconnecting$" err.txt ||
	die "no word of the timeout: $(cat err.txt)"
grep -q "records ([0-9]* bytes) not acknowledged by the collector, lost with 1 connection$" err.txt ||
	die "no count of the lost: $(cat err.txt)"
grep -q "gave up after 1 s without a connection" err.txt ||
	die "did not give up: $(cat err.txt)"
