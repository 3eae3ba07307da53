# A recording that dumpcap -b filesize:1000 rotates over pcapng files
# (cap_00001_20261201120000.pcapng, ...): gpumem send over UDP to
# loopback, frames of 500 records in 7 IP fragments (an MTU of 1500 in a
# network namespace of the case's own).  The files read together in any
# order give every record sent, exactly, as mergecap -a of them does; each
# alone (--no-join) loses the datagrams cut at its boundaries.
. "$TESTS/lib.sh"
command -v dumpcap > /dev/null || skip "dumpcap is not installed"
in_netns
command -v mergecap > /dev/null || skip "mergecap is not installed"
wide_stream 400 > send.csv
gpumem-read -q send.csv > want.csv
all=$(nrec want.csv)
sink_start sink.txt -u
mkdir rot
dumpcap -q -i lo -B 64 -f "udp or (ip[6:2] & 0x1fff != 0)" \
    -b filesize:1000 -w rot/cap.pcapng 2> dumpcap.err 3>&- 4>&- 5>&- &
cap_pid=$!
bg_add $cap_pid
started() {
	grep -q 'Capturing on' dumpcap.err || ! kill -0 $cap_pid 2> /dev/null
}
wait_for 30 started || die "dumpcap did not start"
grep -q 'Capturing on' dumpcap.err ||
	skip "dumpcap cannot capture on lo: $(head -n 1 dumpcap.err)"
gpumem-send udp://127.0.0.1:$sink_port send.csv || die "send: exit $?"
whole() {
	mergecap -a -w merged.pcapng rot/cap_*.pcapng &&
	    [ "$(gpumem-read -q merged.pcapng | wc -l)" -gt "$all" ]
}
wait_for 30 whole || die "the capture misses records"
kill -INT $cap_pid
wait $cap_pid || :
set -- rot/cap_*.pcapng
[ $# -ge 3 ] || die "dumpcap wrote $# files"
gpumem-read -q merged.pcapng > merged.csv
cmp -s merged.csv want.csv || die "mergecap -a: $(diff merged.csv want.csv | head -3)"
gpumem-read $(printf '%s\n' "$@" | sort -r) > got.csv 2> err.txt || die "read: exit $?"
cmp -s got.csv want.csv || die "joined: $(diff got.csv want.csv | head -3)"
grep -q "^gpumem-read: $1\.\..*: one recording of $# files\$" err.txt || die "$(cat err.txt)"
grep -q ": $all records (pcapng capture, Ethernet: [0-9]* packets, [0-9]* GMEM frames from 1 sender)\$" err.txt ||
	die "summary: $(cat err.txt)"
gpumem-read -q --no-join "$@" > alone.csv
[ "$(nrec alone.csv)" -lt "$all" ] || die "--no-join: nothing lost"
