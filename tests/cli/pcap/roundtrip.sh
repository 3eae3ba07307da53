# gpumem read of what gpumem pcap writes gives the stream back byte for
# byte, for every synth scenario, from IPv4 and IPv6 senders at once: over
# UDP and TCP, as pcap and pcapng, plain and gzip.
. "$TESTS/lib.sh"
for s in $(gpumem-synth --list | cut -d' ' -f1); do
	[ "$s" = random ] && set -- --duration 2m --interval 250ms || set --
	gpumem-synth -s "$s" "$@" --gmem --host 10.0.0.7 > a.csv
	gpumem-synth -s "$s" "$@" --gmem --host 2001:db8::7 --seed 2 > b.csv
	gpumem-synth -s multi-gpu --gmem --host 192.168.1.20 > c.csv
	gpumem-read -q a.csv b.csv c.csv > want.csv || die "$s: read: exit $?"
	gpumem-pcap -q want.csv > udp.pcap || die "$s: pcap: exit $?"
	gpumem-pcap -q --tcp --segment 100 --pcapng want.csv > tcp.pcapng ||
		die "$s: pcap --tcp: exit $?"
	gpumem-pcap -q --pcapng --mtu 300 want.csv | gzip > udp.pcapng.gz
	gpumem-pcap -q --tcp want.csv | gzip > tcp.pcap.gz
	for f in udp.pcap tcp.pcapng udp.pcapng.gz tcp.pcap.gz; do
		gpumem-read -q $f > got.csv || die "$s: $f: exit $?"
		cmp -s want.csv got.csv || die "$s: $f differs: $(diff want.csv got.csv | head -5)"
	done
done
