# A DEST that is not one is exit 2 with a message; so is a TCP collector
# that does not answer within --retry-for.  UDP to a port where nobody
# listens is not an error (nothing says so but ICMP, counted).
. "$TESTS/lib.sh"
gpumem-synth -s leak --gmem --host 127.0.0.1 > s.csv
rc=0; gpumem-send > out.txt 2> err.txt || rc=$?
echo "no DEST: exit $rc $(head -n 1 err.txt)"
for d in "" http://10.0.0.1:9717 udp:// udp://:9717 udp://::1:9717 'udp://[::1' \
    'udp://[::1]x' udp://10.0.0.1:0 udp://10.0.0.1:65536 tcp://10.0.0.1:97x17; do
	rc=0; gpumem-send $d s.csv > out.txt 2> err.txt || rc=$?
	echo "'$d': exit $rc $(head -n 1 err.txt)"
	! [ -s out.txt ] || echo "'$d': wrote to stdout"
done
rc=0; gpumem-send --retry-for soon udp://127.0.0.1 s.csv || rc=$?
echo "exit $rc"
rc=0; gpumem-send --lag -1 udp://127.0.0.1 s.csv || rc=$?
echo "exit $rc"
# Nobody listens: a port the sink had, now closed.
sink_start sink.txt
port=$sink_port
kill $sink_pid
wait $sink_pid
rc=0; gpumem-send --retry-for 0 tcp://127.0.0.1:$port s.csv 2> err.txt || rc=$?
echo "tcp, nobody listening: exit $rc"
sed "s/:$port:/:PORT:/" err.txt
rc=0; gpumem-send --retry-for 300ms tcp://127.0.0.1:$port s.csv 2> err.txt || rc=$?
echo "tcp, nobody listening for 300ms: exit $rc"
sed "s/:$port:/:PORT:/" err.txt
rc=0; gpumem-send -q udp://127.0.0.1:$port s.csv || rc=$?
echo "udp, nobody listening: exit $rc"
rc=0; gpumem-send -q udp://localhost:$port s.csv || rc=$?
echo "udp to localhost: exit $rc"
rc=0; gpumem-send udp://127.0.0.1:$port no-such-file.csv || rc=$?
echo "no input: exit $rc"
