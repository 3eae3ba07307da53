# Differential: the Wireshark dissector (contrib/wireshark/gmem.lua under
# tshark) and gpumem read give the same records, timestamps verbatim, on
# a capture of one sender whose TCP connections (one per GPU, as gpumem
# send opens them) do not keep pace: GPU 1's packets reach the collector
# 20 s after GPU 0's of the same time (a slow path, a queue), so records
# of one sender come after later ones of the same sender.  Its clock did
# not step: every record keeps the time it was sent with.  Also with the
# capture cut into files by editcap -c and read in one call.
#
# Issue 31: before its fix, gpumem read judged clock steps across the
# streams of a sender and rewrote the later times ("the clock steps back
# 19 s ... later times read as continuing (+20 s)"): the comparison with
# tshark fails on that code, naming the records rewritten.
. "$TESTS/lib.sh"
command -v tshark > /dev/null || skip "tshark is not installed"
export HOME=$PWD	# tshark keeps its profile there
tshark -v 2> /dev/null | grep -q 'with Lua' || skip "tshark has no Lua"
gpumem-synth -s random --duration 5m --gpus 2 --gmem --host 10.0.0.1 > h.csv
gpumem-pcap -q --tcp --segment 500 h.csv > h.pcap
# The connection of GPU 0 (the first port) apart from the other, which
# is moved 20 s later, then the two merged in time order.
port=$(tshark -r h.pcap -T fields -e tcp.srcport -c 1 2> /dev/null)
tshark -r h.pcap -Y "tcp.port == $port" -w g0.pcap 2> /dev/null
tshark -r h.pcap -Y "tcp.port != $port" -w g1.pcap 2> /dev/null
editcap -t 20 g1.pcap g1-late.pcap
mergecap -w late.pcapng g0.pcap g1-late.pcap
tail -n +2 h.csv | sort > truth.txt
oracle_tshark late.pcapng
echo "$(wc -l < truth.txt) records sent"
# Issue 31 if this fails saying "the clock steps back".
oracle_read "GPU 1 20 s late" late.pcapng
editcap -c 300 late.pcapng rot.pcapng
set -- rot_*.pcapng
[ $# -ge 3 ] || die "editcap -c wrote $# files"
oracle_read "editcap -c, $# files in one call" "$@"
