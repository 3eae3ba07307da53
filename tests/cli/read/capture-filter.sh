# --filter takes a BPF expression (libpcap's), --port a UDP or TCP port
# (after reassembly); a filter libpcap cannot compile is exit 2.
. "$TESTS/lib.sh"
gpumem-synth -s clean --gmem --host 10.0.0.7 > a.csv
gpumem-synth -s leak --gmem --host 10.0.0.8 > b.csv
gpumem-pcap -q a.csv > a.pcap
gpumem-pcap -q --dport 5000 --mtu 128 b.csv > b.pcap
gpumem-pcap -q --tcp a.csv b.csv > ab.pcap
gpumem-read -q --filter 'src host 10.0.0.8' ab.pcap | cmp - b.csv || die "--filter host"
gpumem-read -q --filter 'tcp and dst port 9717 and host 10.0.0.7' ab.pcap | cmp - a.csv || die "--filter port"
gpumem-read -q a.pcap b.pcap > both.csv
gpumem-read -q --port 5000 a.pcap b.pcap | cmp - b.csv || die "--port 5000"
gpumem-read -q --port 9717 a.pcap b.pcap | cmp - a.csv || die "--port 9717"
rc=0; gpumem-read --filter 'udp port 9717 or' a.pcap || rc=$?
echo "exit $rc"
rc=0; gpumem-read --port 70000 a.pcap || rc=$?
echo "exit $rc"
