# Sequence numbers per sender and GPU: a frame captured twice is dropped
# (same number, same content); a sender that starts counting again (same
# numbers, other content) loses nothing and is counted as a restart; after
# a frame flagged as the last of its stream, numbers start afresh.
. "$TESTS/lib.sh"
gpumem-synth -s clean --gmem --host 10.0.0.7 > a.csv
gpumem-synth -s clean --gmem --host 10.0.0.7 --start 2026-01-01T00:00:50Z > b.csv
gpumem-pcap -q a.csv > a.pcap
gpumem-pcap -q b.csv > b.pcap
# One capture: a's packets then b's (a restarted sender; its times go on
# where a's end: times that step back are a clock step, see clock-cat.sh),
# one of a's frames twice.
"$TOOLS/pcapedit" a.pcap ab.pcap dup 5
tail -c +25 b.pcap >> ab.pcap
gpumem-read -q a.csv b.csv > want.csv
gpumem-read ab.pcap | cmp - want.csv || die "restart"
# Frame 10 says it is the last: frame 11 is gone, but no gap is counted.
"$TOOLS/pcapedit" a.pcap last.pcap poke 10 47 1 drop 11
grep -v '^1767225610' a.csv > want.csv
gpumem-read last.pcap | cmp - want.csv || die "last frame"
