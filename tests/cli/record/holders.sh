# record writes holders.csv: at each device poll, the processes that hold
# a GPU device file open, stand-ins here (--devices): a sleep started
# before the recording holds dev/nvidia1 (GPU 1), the command's shell
# and its sleep hold dev/nvidia0.  dev/nvidiactl is no GPU file of the
# glob and names nobody.  Without --devices, the stand-ins are not GPUs.
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
mkdir dev
: > dev/nvidia0
: > dev/nvidia1
: > dev/nvidiactl
sh -c 'exec 3< dev/nvidia1 4< dev/nvidiactl; exec sleep 30' &
holder=$!
bg_add $holder
wait_for 10 grep -qx sleep /proc/$holder/comm || die "the holder did not start"
cg=$(sed -n '1{s/^[^:]*:[^:]*://;s/\([0-9a-f]\{12\}\)[0-9a-f]\{52\}/\1/g;p;}' /proc/$holder/cgroup)
gpumem-record --before 0 --after 300ms --interval 100ms \
    --devices "$PWD/dev/nvidia[0-9]*" -o run -- \
    sh -c 'exec 3< dev/nvidia0; echo $$ > cmd.pid; sleep 0.5'
expect_eq "header" "$(head -n 1 run/holders.csv)" "time_ns,gpu,pid,name,cgroup,container"
# The holder from outside: GPU 1, at every poll (the command's 0.5 s and
# the 0.3 s after, every 100 ms: 4 polls at least however loaded).
awk -F, -v p=$holder '$3 == p { print $2 "," $4 "," $5 }' run/holders.csv | sort -u > outside.txt
expect_eq "the outside holder" "$(cat outside.txt)" "1,sleep,$cg"
n=$(awk -F, -v p=$holder '$3 == p' run/holders.csv | wc -l)
[ "$n" -ge 4 ] || die "the outside holder in $n polls: $(cat run/holders.csv)"
# The command's shell on GPU 0, and nothing else on GPU 1.
cmd=$(cat cmd.pid)
grep -q "^[0-9]*,0,$cmd,sh," run/holders.csv || die "the command: $(cat run/holders.csv)"
expect_eq "GPU 1's holders" "$(awk -F, '$2 == 1 { print $3 }' run/holders.csv | sort -u)" "$holder"
# Times: ascending, within the run.
awk -F, 'NR > 2 && $1 < last { exit 1 } NR > 1 { last = $1 }' run/holders.csv ||
	die "times not in order"
# Without --devices: /dev/nvidia<N> only; the stand-ins name nobody.
gpumem-record --before 0 --after 0 -o run2 -- true
n=$(grep -c ",$holder," run2/holders.csv || :)
expect_eq "the stand-in without --devices" "$n" 0
