# A TCP hole the capture never fills, on a busy capture: two senders
# (IPv4 and IPv6, in step) stream to collectors on loopback, captured by
# tcpdump in the senders' direction only (no acks: the hole waits), and
# editcap drops one packet.  Only that packet's records are lost: the
# bytes after the hole are read at once, not after the hole's wait, when
# the other sender's records have left the reorder window long since.
# The lost records are decoded from the dropped packet by perl, after the
# spec (docs/wire-protocol.md).
. "$TESTS/lib.sh"
command -v editcap > /dev/null || skip "editcap is not installed"
command -v tshark > /dev/null || skip "tshark is not installed"
gpumem-synth -s random --gmem --host 127.0.0.1 --duration 10m > a.csv
gpumem-synth -s random --seed 2 --gmem --host ::1 --duration 10m > b.csv
gpumem-read -q a.csv b.csv | tail -n +2 | sort > want-all.txt
sink_start sink4.txt
port4=$sink_port
sink_start sink6.txt -6
port6=$sink_port
lo_capture cap.pcap "tcp dst port $port4 or tcp dst port $port6"
mkfifo fa fb
gpumem-send tcp://127.0.0.1:$port4 fa &
p1=$!
gpumem-send tcp://[::1]:$port6 fb &
p2=$!
# Both senders get their lines in step, a few at a time, as pollers do.
perl -e 'open(A, ">", "fa") or die; open(B, ">", "fb") or die;
	select(B); $| = 1; select(A); $| = 1;
	open(X, "<", $ARGV[0]) or die; open(Y, "<", $ARGV[1]) or die;
	while (1) {
		$a = <X>; $b = <Y>;
		last unless defined $a or defined $b;
		print A $a if defined $a;
		print B $b if defined $b;
		select(undef, undef, undef, 0.0002) if $. % 4 == 0;
	}' a.csv b.csv
wait $p1 || die "send a.csv: exit $?"
wait $p2 || die "send b.csv: exit $?"
all=$(wc -l < want-all.txt | tr -d ' ')
whole() {
	[ "$(gpumem-read -q --window 100000 cap.pcap 2> /dev/null | tail -n +2 | wc -l | tr -d ' ')" = "$all" ]
}
wait_for 30 whole || die "the capture misses records"
lo_capture_stop
# The senders must have kept in step for the reorder window to hold the
# capture without a hole (a loaded machine may stall one of them).
gpumem-read -q --window 1000 cap.pcap 2> /dev/null | tail -n +2 | sort | cmp -s - want-all.txt ||
	skip "the senders drifted apart beyond the reorder window"
# The IPv6 sender's data packets; drop one in the first quarter whose
# payload is whole frames (it starts and ends at frame boundaries).
tshark -r cap.pcap -Y 'ipv6 && tcp.len > 0' -T fields -e frame.number \
    -e tcp.payload > pkts.txt
n=$(wc -l < pkts.txt)
perl -ne 'BEGIN { $lim = '"$n"' / 4 }
	($num, $hex) = split;
	$p = pack("H*", $hex); $o = 0; $ok = 1; @out = ();
	while ($o < length($p)) {
		($m, $v, $fl, $gpu, $seq, $count, $res, $total) =
		    unpack("a4 C C n N n n N", substr($p, $o, 20));
		if ($m ne "GMEM" || $o + 20 + 20 * $count > length($p)) { $ok = 0; last }
		for $i (0 .. $count - 1) {
			($ts, $used, $free, $pid) =
			    unpack("Q> N N N", substr($p, $o + 20 + 20 * $i, 20));
			push @out, "$ts,::1,$gpu,$pid,$used,$free," .
			    ($total ? $total : "") . ",\n";
		}
		$o += 20 + 20 * $count;
	}
	if ($ok && $. > 20 && $. > $lim) {
		print STDERR "$num\n"; print @out; exit;
	}' pkts.txt 2> num.txt | sort > lost.txt
drop=$(cat num.txt)
[ -n "$drop" ] && [ -s lost.txt ] || die "no packet of whole frames to drop"
editcap -F pcap cap.pcap hole.pcap "$drop"
comm -23 want-all.txt lost.txt > want.txt
expect_eq "records in the dropped packet" \
    $(($(wc -l < want-all.txt) - $(wc -l < want.txt))) $(wc -l < lost.txt)
gpumem-read --window 1000 hole.pcap 2> err.txt | tail -n +2 | sort > got.txt
cmp -s got.txt want.txt ||
	die "--window 1000: $(diff got.txt want.txt | wc -l) lines differ: $(tail -n 1 err.txt)"
! grep -q 'reorder window' err.txt || die "$(tail -n 1 err.txt)"
