# A recording that dumpcap -b filesize:1000 rotates over pcapng files
# (cap_00001_20261201120000.pcapng, ...): gpumem send over UDP to
# loopback, frames of 500 records in 7 IP fragments (an MTU of 1500 in a
# network namespace of the case's own).  The files read together in any
# order give every record sent, exactly, as mergecap -a of them does; each
# alone (--no-join) loses the datagrams cut at its boundaries.
# Nothing here waits for time.  dumpcap says "Capturing on" before it
# captures (packets sent then are lost: 0 to 952 of 2801 in 10 runs):
# probe datagrams go out until it counts one ("Packets: N" on stderr).
# After the data an end probe goes out, and once its bytes are in a file
# dumpcap has written every packet before it; it is stopped and waited
# for (its files closed) before anything reads them.
. "$TESTS/lib.sh"
command -v dumpcap > /dev/null || skip "dumpcap is not installed"
command -v bash > /dev/null || skip "bash is absent (it sends the probes)"
in_netns
command -v mergecap > /dev/null || skip "mergecap is not installed"
wide_stream 400 > send.csv
gpumem-read -q send.csv > want.csv
all=$(nrec want.csv)
sink_start sink.txt -u
mkdir rot
dumpcap -i lo -B 64 -f "udp or (ip[6:2] & 0x1fff != 0)" \
    -b filesize:1000 -w rot/cap.pcapng 2> dumpcap.err 3>&- 4>&- 5>&- &
cap_pid=$!
bg_add $cap_pid
started() {
	grep -q 'Capturing on' dumpcap.err || ! kill -0 $cap_pid 2> /dev/null
}
wait_for 30 started || die "dumpcap did not start"
grep -q 'Capturing on' dumpcap.err ||
	skip "dumpcap cannot capture on lo: $(head -n 1 dumpcap.err)"
# probe TEXT: a datagram to the discard port (no GMEM: read as skipped).
probe() {
	bash -c 'printf %s "$1" > /dev/udp/127.0.0.1/9' probe "$1"
}
counted() {
	tr '\r' '\n' < dumpcap.err | grep -q '^Packets: [1-9]'
}
n=0
until counted; do
	kill -0 $cap_pid 2> /dev/null || die "dumpcap: $(tail -n 2 dumpcap.err)"
	n=$((n + 1))
	[ $n -le 300 ] || die "dumpcap counted none of 300 probes"
	probe gpumem-start-probe
	wait_for 1 counted || :
done
# IPv4 packets put on the wire: datagrams, less those cut into
# fragments, plus the fragments (/proc/net/snmp of this namespace).
sent() {
	awk '$1 == "Ip:" && !h { for (i = 2; i <= NF; i++) k[$i] = i; h = 1; next }
	    $1 == "Ip:" { print $k["OutRequests"] - $k["FragOKs"] + $k["FragCreates"] }' \
	    /proc/net/snmp
}
before=$(sent)
gpumem-send udp://127.0.0.1:$sink_port send.csv || die "send: exit $?"
packets=$(($(sent) - before))
probe gpumem-end-probe
# The files as they are at each look: a dumpcap behind the data (a loaded
# machine) opens the next file after the wait has begun, and the probe
# may be in it (a glob given to wait_for was expanded once: it looked at
# the files of its start for 300 s; failed once so under ASan).
written() {
	grep -q gpumem-end-probe rot/cap_*.pcapng
}
# A generous bound: failing it means the end probe was lost, not a race.
wait_for 300 written ||
	die "dumpcap did not write the end probe: $(tr '\r' '\n' < dumpcap.err | tail -n 1)"
kill -INT $cap_pid
wait $cap_pid || die "dumpcap: exit $?: $(tail -n 2 dumpcap.err)"
# Every packet of the data, and the probes: the end one and those of
# the start it counted.
captured=$(tr '\r' '\n' < dumpcap.err | sed -n 's/^Packets captured: //p')
probes=$((captured - packets))
[ $probes -ge 2 ] || die "dumpcap captured $captured packets, the data are $packets"
set -- rot/cap_*.pcapng
[ $# -ge 3 ] || die "dumpcap wrote $# files"
mergecap -a -w merged.pcapng "$@"
gpumem-read -q merged.pcapng > merged.csv
cmp -s merged.csv want.csv || die "mergecap -a: $(diff merged.csv want.csv | head -3)"
gpumem-read $(printf '%s\n' "$@" | sort -r) > got.csv 2> err.txt || die "read: exit $?"
cmp -s got.csv want.csv || die "joined: $(diff got.csv want.csv | head -3)"
grep -q "^gpumem-read: $1\.\..*: one recording of $# files\$" err.txt || die "$(cat err.txt)"
grep -q ": $all records (pcapng capture, Ethernet: [0-9]* packets, [0-9]* GMEM frames from 1 sender); skipped $probes: $probes non-GMEM packets\$" err.txt ||
	die "summary: $(cat err.txt)"
gpumem-read -q --no-join "$@" > alone.csv
[ "$(nrec alone.csv)" -lt "$all" ] || die "--no-join: nothing lost"
