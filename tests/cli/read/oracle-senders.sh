# Differential: the Wireshark dissector (contrib/wireshark/gmem.lua, under
# tshark: Wireshark's own IP and TCP reassembly, no code of gpumem's) and
# gpumem read give the same records, every field, timestamps verbatim, on
# a capture of three senders whose clocks differ, as a collector's is:
# 10.0.0.1 on time, over UDP cut into IP fragments; 10.0.0.2 37.25 s
# ahead, over TCP (a connection per GPU, 8 interleaved, small segments);
# 2001:db8::3 20.5 s behind, over TCP on IPv6.  Each sender's capture is
# written by gpumem pcap (packets at its records' times) and moved by
# editcap to the collector's clock, then the three merged by mergecap.
# The truth is what the senders sent (awk moved their clocks); tshark
# must give it, and gpumem read what tshark gives: on the merged capture,
# on it cut by editcap -c into files read in one call (one recording), and
# on those files joined again by mergecap -a.
. "$TESTS/lib.sh"
command -v tshark > /dev/null || skip "tshark is not installed"
export HOME=$PWD	# tshark keeps its profile there
tshark -v 2> /dev/null | grep -q 'with Lua' || skip "tshark has no Lua"
# clock MS FILE: the record stream FILE with every time MS ms later
# (earlier when negative), in integers (awk's doubles would round).
clock() {
	awk -F, -v OFS=, -v ms="$1" 'NR == 1 { print; next } {
		s = substr($1, 1, length($1) - 9) + 0
		n = substr($1, length($1) - 8) + ms % 1000 * 1000000
		s += int(ms / 1000)
		if (n < 0) { n += 1000000000; s-- }
		else if (n >= 1000000000) { n -= 1000000000; s++ }
		$1 = sprintf("%d%09d", s, n); print
	}' "$2"
}
gpumem-synth -s random --duration 5m --gpus 2 --gmem --host 10.0.0.1 > a.csv
gpumem-synth -s random --seed 2 --duration 5m --gpus 8 --gmem --host 10.0.0.2 > b0.csv
gpumem-synth -s random --seed 3 --duration 5m --gpus 2 --gmem --host 2001:db8::3 > c0.csv
clock 37250 b0.csv > b.csv
clock -20500 c0.csv > c.csv
expect_eq "b's clock" "$(sed -n 2p b.csv | cut -d, -f1)" \
    $(($(sed -n 2p b0.csv | cut -d, -f1) + 37250000000))
gpumem-pcap -q --mtu 600 a.csv > a.pcap
gpumem-pcap -q --tcp --segment 333 b.csv > b.pcap
gpumem-pcap -q --tcp --segment 1000 c.csv > c.pcap
editcap -t -37.25 b.pcap b-collector.pcap
editcap -t 20.5 c.pcap c-collector.pcap
mergecap -w all.pcapng a.pcap b-collector.pcap c-collector.pcap
for f in a b c; do
	tail -n +2 $f.csv
done | sort > truth.txt
echo "$(wc -l < truth.txt) records sent"

# tshark's records are the truth (the packets are the same in all.pcapng
# and in the files below).
oracle_tshark all.pcapng
oracle_read "mergecap" all.pcapng
editcap -c 1500 all.pcapng rot.pcapng
set -- rot_*.pcapng
[ $# -ge 4 ] || die "editcap -c wrote $# files"
oracle_read "editcap -c, $# files in one call" "$@"
mergecap -a -w joined.pcapng "$@"
oracle_read "mergecap -a of them" joined.pcapng
