# A server fixture left running: the command starts a background
# "server" (a sleep, which the stand-in nvidia-smi shows holding 2 GiB)
# and exits.  gpumem record writes when the command started and ended
# (start_ns, end_ns in DIR/meta, the same times as start: and end:), and
# gpumem check of the directory fails the server: still running after
# the command ended, holding its memory at the last sample.  (How many
# polls the loops make on a loaded machine varies: the failure is
# compared exactly, the rest of the verdict by its word.)
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
export FAKE_GPU_COMM=sleep FAKE_GPU_MIB=2048 FAKE_GPU_RELEASE_MS=0
gpumem-record --interval 100ms --before 500ms --after 4s -o run -- \
    sh -c 'sleep 60 > /dev/null 2>&1 & echo $! > server.pid' && rc=0 || rc=$?
server=$(cat server.pid)
trap 'kill $server 2> /dev/null || :' EXIT
expect_eq "exit status" $rc 0
grep -q '^exit: status 0$' run/meta || die "meta: $(cat run/meta)"
# The exact times agree with the readable ones, as date(1) reads those.
for k in start end; do
	iso=$(sed -n "s/^$k: //p" run/meta)
	ns=$(sed -n "s/^${k}_ns: //p" run/meta)
	expect_eq "$k" "$(date -u -d "$iso" +%s%3N)" "${ns%??????}"
done
# The server outlived the command: exit 1, whatever its pid.
gpumem-check run 2> err.txt && rc=0 || rc=$?
echo "check: exit $rc"
sed "s/(pid $server)/(pid SERVER)/" err.txt | grep -v ': FAIL: '
grep -c ': FAIL: ' err.txt
