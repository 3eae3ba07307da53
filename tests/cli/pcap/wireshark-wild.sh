# The Wireshark dissector (contrib/wireshark/gmem.lua) under tshark with
# the default preferences, on captures made as wild ones are: tcpdump on
# loopback while gpumem send talks to a collector over TCP and UDP, then
# cut to start mid-stream and holed (editcap), reordered (a segment
# captured late, by perl or pcapedit, checked by tshark), captured twice
# (mergecap);
# plain traffic on the GMEM port; GMEM on TCP 6000 (X11's).  On each,
# every record tshark exports is one gpumem read gives, and none other,
# every field of it; the expert info says what was skipped or repeated.
. "$TESTS/lib.sh"
for t in tshark editcap mergecap perl; do
	command -v $t > /dev/null || skip "$t is not installed"
done
export HOME=$PWD	# tshark keeps its profile there
tshark -v 2>/dev/null | grep -q 'with Lua' || skip "tshark has no Lua"
gpumem-synth -s random --gmem --host 127.0.0.1 --duration 10m > burst.csv
gpumem-synth -s random --seed 3 --gmem --host 127.0.0.1 --duration 2m > paced.csv

# sink_on PORT FILE [gmemsink options]: a collector on PORT; 1 when the
# port is taken.
sink_on() {
	_p=$1 _f=$2
	shift 2
	"$TOOLS/gmemsink" -q -p "$_p" "$@" > "$_f" 2> "$_f.err" &
	_pid=$!
	wait_for 30 sink_up "$_f" $_pid || die "gmemsink did not start"
	[ -s "$_f" ] || return 1
	bg_add $_pid
}
sink_up() {
	[ -s "$1" ] || ! kill -0 "$2" 2> /dev/null
}
# paced FILE: FILE's lines a few at a time, as a poller writes them.
paced() {
	perl -e '$| = 1; while (<>) { print;
	    select(undef, undef, undef, 0.001) if $. % 7 == 0 }' "$1"
}
# has PCAP WANT: gpumem read of PCAP gives the records of WANT.
has() {
	gpumem-read -q "$1" 2> /dev/null | cmp -s - "$2"
}
# same PCAP: tshark's records are gpumem read's, every field; the
# number of records in same.n.
same() {
	sh "$TESTS/tools/tsharkrecs.sh" "$1" | sort > tshark.txt ||
		die "$1: tshark failed"
	gpumem-read -q "$1" 2> /dev/null | tail -n +2 | sort > read.txt
	cmp -s tshark.txt read.txt ||
		die "$1: tshark differs from gpumem read: $(diff tshark.txt read.txt | grep -c '^[<>]') lines ($(diff tshark.txt read.txt | head -3))"
	wc -l < read.txt | tr -d ' ' > same.n
}
# data PCAP N: the packet number of the Nth TCP packet of PCAP with data.
data() {
	tshark -r "$1" -Y 'tcp.len > 0' -T fields -e frame.number \
	    2> /dev/null | sed -n "$2p"
}
# midstream PCAP OUT: PCAP from its third data packet on (inside a
# frame) as OUT; the same records, the bytes before the first frame
# said as skipped.
midstream() {
	editcap -F pcap -r "$1" "$2" "$(data "$1" 3)-1000000" 2> /dev/null
	same "$2"
	[ "$(cat same.n)" -gt 1000 ] || die "$2: $(cat same.n) records"
	expert "$2" | grep -q 'bytes skipped before a GMEM frame header' ||
		die "$2: no bytes skipped: $(expert "$2")"
}
# expert PCAP: the GMEM expert infos of PCAP, one summary a line.
expert() {
	tshark -X lua_script:"$TESTS/../contrib/wireshark/gmem.lua" -r "$1" \
	    -q -z expert 2> /dev/null | awk '$3 == "GMEM"'
}

sink_on 9717 tcp.sink || skip "TCP port 9717 is taken"
sink_on 9717 udp.sink -u || skip "UDP port 9717 is taken"
for p in $(seq 6000 6063); do
	! sink_on $p x11.sink || break
done
[ -s x11.sink ] || skip "TCP ports 6000-6063 are taken"
x11=$(head -n 1 x11.sink)

# TCP: a file sent at once (segments of 32 and 64 KiB that cut frames),
# captured in the sender's direction.
gpumem-read -q burst.csv > burst.want
lo_capture tcp.pcap "tcp dst port 9717"
gpumem-send -q tcp://127.0.0.1 burst.csv || die "send: exit $?"
wait_for 30 has tcp.pcap burst.want || die "the capture misses records"
lo_capture_stop
same tcp.pcap
expect_eq "tcp: records" "$(cat same.n)" $(($(wc -l < burst.want) - 1))
midstream tcp.pcap mid.pcap
# A data packet in the middle lost.
editcap -F pcap tcp.pcap hole.pcap "$(data tcp.pcap 5)"
same hole.pcap
expert hole.pcap | grep -q 'frames* missing before this one' ||
	die "hole: no gap said: $(expert hole.pcap)"
# The capture twice, merged: each segment a retransmission.
mergecap -F pcap -w dup.pcap tcp.pcap tcp.pcap
same dup.pcap
expect_eq "tcp twice: records" "$(cat same.n)" $(($(wc -l < burst.want) - 1))
# A segment captured late: two neighbouring data packets exchanged
# (pcapedit swap), three pairs in turn.  With the default preferences TCP
# keeps the late one from GMEM, and its edges cut frames whose other
# parts are in its neighbours.  Every record of the file sent, every
# field, and no other (sorted: gpumem read's times are another matter
# on these).  Then one later still: three in reverse order (the middle
# one's right neighbour came first), and the third first (the second's
# left neighbour came late too).
tail -n +2 burst.want | sort > burst.sorted
# late PCAP: tshark's records are the file's; the frames joined across
# the late segment's edges added to joined.n.
late() {
	sh "$TESTS/tools/tsharkrecs.sh" "$1" | sort > tshark.txt ||
		die "$1: tshark failed"
	cmp -s tshark.txt burst.sorted ||
		die "$1: tshark differs from the file sent: $(diff tshark.txt burst.sorted | grep -c '^[<>]') lines ($(diff tshark.txt burst.sorted | head -3))"
	tshark -X lua_script:"$TESTS/../contrib/wireshark/gmem.lua" -r "$1" \
	    -Y gmem.joined -T fields -e gmem.joined 2> /dev/null |
	    tr ',' '\n' | grep -c . >> joined.n || :
}
: > joined.n
[ -n "$(data tcp.pcap 6)" ] || die "tcp: fewer than 6 data packets"
for k in 3 4 5; do
	"$TOOLS/pcapedit" tcp.pcap swap.pcap swap "$(data tcp.pcap $k)" \
	    "$(data tcp.pcap $((k + 1)))"
	late swap.pcap
done
# (Three edges or more of the six cut a frame: an edge that falls
# between two frames is about one chance in 60 here.)
[ "$(awk '{ n += $1 } END { print n }' joined.n)" -ge 3 ] ||
	die "late: frames joined across edges: $(cat joined.n)"
set -- "$(data tcp.pcap 2)" "$(data tcp.pcap 3)" "$(data tcp.pcap 4)"
"$TOOLS/pcapedit" tcp.pcap rev.pcap reverse "$1-$3"
late rev.pcap
"$TOOLS/pcapedit" tcp.pcap swap.pcap swap "$1" "$3"
"$TOOLS/pcapedit" swap.pcap third.pcap swap "$2" "$3"
late third.pcap

# TCP, paced: segments of whole frames; one captured late.
gpumem-read -q paced.csv > paced.want
lo_capture paced.pcap "tcp dst port 9717"
paced paced.csv | gpumem-send -q tcp://127.0.0.1 || die "send: exit $?"
wait_for 30 has paced.pcap paced.want || die "the capture misses records"
lo_capture_stop
same paced.pcap
# Data packets 10 and 11 exchanged, each at the other's time.
set -- "$(data paced.pcap 10)" "$(data paced.pcap 11)"
perl -e '($a, $b) = @ARGV[2, 3]; open(I, "<", $ARGV[0]) or die; binmode I;
	local $/; $d = <I>; $h = substr($d, 0, 24, "");
	$e = substr($h, 0, 4) eq "\xd4\xc3\xb2\xa1" ? "V" : "N";
	while (length $d) {
		$cl = unpack($e, substr($d, 8, 4));
		push @p, [substr($d, 0, 8), substr($d, 8, 8 + $cl)];
		substr($d, 0, 16 + $cl, "");
	}
	($p[$a - 1][1], $p[$b - 1][1]) = ($p[$b - 1][1], $p[$a - 1][1]);
	open(O, ">", $ARGV[1]) or die; binmode O;
	print O $h, map { @$_ } @p' paced.pcap ooo.pcap "$1" "$2"
[ -n "$(tshark -r ooo.pcap -Y 'tcp.analysis.out_of_order || tcp.analysis.retransmission' 2> /dev/null)" ] ||
	die "ooo: tshark sees nothing out of order"
same ooo.pcap
expect_eq "ooo: records" "$(cat same.n)" $(($(wc -l < paced.want) - 1))

# UDP, and the capture twice: every frame said as a duplicate.
lo_capture udp.pcap "udp dst port 9717"
paced paced.csv | gpumem-send -q udp://127.0.0.1 || die "send: exit $?"
wait_for 30 has udp.pcap paced.want || die "the capture misses records"
lo_capture_stop
same udp.pcap
mergecap -F pcap -w udup.pcap udp.pcap udp.pcap
same udup.pcap
expect_eq "udp twice: records" "$(cat same.n)" $(($(wc -l < paced.want) - 1))
frames=$(tshark -r udp.pcap 2> /dev/null | wc -l)
expect_eq "udp twice: duplicates" \
    "$(tshark -X lua_script:"$TESTS/../contrib/wireshark/gmem.lua" -r udup.pcap -Y gmem.duplicate_of 2> /dev/null | wc -l)" \
    $frames

# Other traffic on port 9717: no GMEM, nothing malformed.
lo_capture other.pcap "port 9717"
perl -MIO::Socket::INET -e '
	$u = IO::Socket::INET->new(PeerAddr => "127.0.0.1:9717", Proto => "udp") or die;
	$u->send("GMEX" . "\0" x 36); $u->send("hello, not telemetry");
	$t = IO::Socket::INET->new(PeerAddr => "127.0.0.1:9717", Proto => "tcp") or die;
	print $t "GET / HTTP/1.0\r\n\r\n", "x" x 3000; close $t' ||
	die "perl could not send"
# (Counted anew at each try: tcpdump writes as packets come.)
other_seen() {
	[ "$(tshark -r other.pcap -Y 'tcp.len > 0 || udp' 2> /dev/null |
	    wc -l)" -ge 3 ]
}
wait_for 30 other_seen ||
	die "the capture misses packets"
lo_capture_stop
expect_eq "other: GMEM packets" \
    "$(tshark -X lua_script:"$TESTS/../contrib/wireshark/gmem.lua" -r other.pcap -Y 'gmem || _ws.malformed || _ws.expert.group == "Malformed"' 2> /dev/null | wc -l)" 0

# GMEM on an X11 port, from the start and from its middle.
lo_capture x11.pcap "tcp dst port $x11"
gpumem-send -q tcp://127.0.0.1:$x11 burst.csv || die "send: exit $?"
wait_for 30 has x11.pcap burst.want || die "the capture misses records"
lo_capture_stop
tshark -r x11.pcap -Y x11 2> /dev/null | grep -q . ||
	die "tshark does not take port $x11 for X11"
same x11.pcap
expect_eq "x11: records" "$(cat same.n)" $(($(wc -l < burst.want) - 1))
midstream x11.pcap x11mid.pcap
