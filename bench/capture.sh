#!/bin/sh
# SPDX-License-Identifier: ISC
# bench/capture.sh: how fast gpumem read reads GMEM captures, next to
# tcpdump reading the same file (-r FILE -w /dev/null) and gpumem read
# reading the same records as its own CSV.
#
#	sh bench/capture.sh [BINDIR]     (data is made in bench/data/)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/bin}" && pwd)
data=$top/bench/data
mkdir -p "$data"
export PATH="$bin:$PATH" LC_ALL=C
cd "$data"
# 2 hours of 8 GPUs sampled every 100 ms: about 1.1 million records.
[ -s rnd.csv ] || gpumem-synth -s random --gmem --host 10.0.0.7 \
    --interval 100ms --duration 2h > rnd.csv
[ -s udp.pcap ] || gpumem-pcap -q rnd.csv -o udp.pcap
[ -s tcp.pcap ] || gpumem-pcap -q --tcp rnd.csv -o tcp.pcap
[ -s udp.pcapng ] || gpumem-pcap -q --pcapng rnd.csv -o udp.pcapng
# 8 GPUs with 100 processes each, every second for 17 minutes: frames
# of 101 records, 2 IP fragments each.
[ -s wide.csv ] || awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (t = 0; t < 1000; t++)
		for (g = 0; g < 8; g++)
			for (p = 0; p < 101; p++)
				printf "%d%03d000000000,10.0.0.8,%d,%d,%d,%d,81559,\n",
				    1767225, t, g, p == 0 ? 0 : 10000 + p, 100 * p, 70000
}' > wide.csv
[ -s frag.pcap ] || gpumem-pcap -q wide.csv -o frag.pcap
[ -s frag-tcp.pcap ] || gpumem-pcap -q --tcp wide.csv -o frag-tcp.pcap
[ -s udp.pcap.gz ] || gzip -c udp.pcap > udp.pcap.gz

# The best of three runs, in seconds.
best() {
	b=
	for i in 1 2 3; do
		s=$(date +%s.%N)
		"$@" > /dev/null 2>&1 || true
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
	done
	printf '%.3f' "$b"
}

printf '%-12s %10s %8s %9s %9s %9s\n' input bytes packets gpumem-read "(--until 1)" tcpdump
for f in rnd.csv udp.pcap udp.pcapng tcp.pcap udp.pcap.gz wide.csv \
    frag.pcap frag-tcp.pcap; do
	size=$(wc -c < $f)
	case $f in
	*.csv) pk=- td=- ;;
	*.gz) pk=$(gzip -dc $f | tcpdump -r - -q 2>/dev/null | wc -l)
	      td=$(best sh -c "gzip -dc $f | tcpdump -r - -w /dev/null") ;;
	*) pk=$(tcpdump -r $f -q 2>/dev/null | wc -l)
	   td=$(best tcpdump -r $f -w /dev/null) ;;
	esac
	printf '%-12s %10s %8s %9s %9s %9s\n' $f $size $pk \
	    "$(best gpumem-read -q $f)" "$(best gpumem-read -q --until 1 $f)" $td
done
echo "(rnd: $(($(wc -l < rnd.csv) - 1)) records; wide, frag: $(($(wc -l < wide.csv) - 1));"
echo " --until 1 reads everything and writes nothing)"
