# A capture of two senders (IPv4, IPv6) reads as their records, with the
# capture's own summary line; -q says nothing when all is well.
cat > s.csv <<'CSV'
timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name
1767225600000000000,10.0.0.7,0,0,100,900,1000,
1767225600000000000,10.0.0.7,0,4242,50,900,1000,
1767225600500000000,2001:db8::7,1,0,200,7800,,
1767225601000000000,10.0.0.7,0,0,0,1000,1000,
1767225601000000000,10.0.0.7,0,4242,0,1000,1000,
CSV
gpumem-pcap s.csv -o udp.pcap
gpumem-pcap --tcp --pcapng s.csv -o tcp.pcapng
gpumem-read udp.pcap
gpumem-read tcp.pcapng | cmp - s.csv
gpumem-read -q udp.pcap tcp.pcapng | tail -n +2
