# TCP as captures have it: segments out of order and retransmitted (no
# loss), segments the capture missed (only the frames they touch are
# lost, whether the receiver's acks show the hole or it just waits),
# a capture that starts in the middle of a connection.
. "$TESTS/lib.sh"
gpumem-synth -s clean --gmem --host 10.0.0.7 > s.csv
# Packets: 1-3 the handshake, then per sample k (from 0) two segments
# (4+3k, 5+3k) and the collector's ack (6+3k).
gpumem-pcap -q --tcp --segment 30 s.csv > ok.pcap
"$TOOLS/pcapedit" ok.pcap a.pcap swap 34 35 swap 37 38 dup 40 dup 41 swap 41 42
gpumem-read a.pcap | cmp - s.csv || die "reordered segments"
# Sample 13 loses its second segment (its header came), sample 20 its
# first (the header too): only those two frames are lost.
"$TOOLS/pcapedit" ok.pcap b.pcap drop 44 drop 64
grep -v -e '^1767225613' -e '^1767225620' s.csv > want.csv
gpumem-read b.pcap | cmp - want.csv || die "holes with acks"
# The same without the collector's acks: the holes wait, then are lost.
acks=$("$TOOLS/pcapedit" ok.pcap | awk '$1 > 5 && ($1 - 6) % 3 == 0 && $2 == 54 { printf " drop %s", $1 }')
"$TOOLS/pcapedit" ok.pcap c.pcap drop 44 drop 64 $acks
gpumem-read c.pcap | cmp - want.csv || die "holes without acks"
# Joined in the middle of sample 0's frame: read from sample 1 on.
"$TOOLS/pcapedit" ok.pcap d.pcap drop 1-4
grep -v '^1767225600' s.csv > want2.csv
gpumem-read d.pcap | cmp - want2.csv || die "joined mid-stream"
