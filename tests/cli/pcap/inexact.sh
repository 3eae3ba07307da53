# What GMEM cannot carry is written as well as it can be and counted in
# one warning line; hosts that are not addresses are sent from --src.
cat > in.csv <<'CSV'
timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name
1000000000,node-a,0,0,100,900,1000,
1000000000,node-a,0,42,50,,,python3 train.py
1000000000,2001:DB8::9,1,0,,800,,
2000000000,10.0.0.9,70000,0,1,2,3,
2000000000,10.0.0.9,3,0,10,20,30,
2000000000,10.0.0.9,3,7,5,20,40,
CSV
gpumem-pcap in.csv > out.pcap
echo "exit $?"
gpumem-read -q out.pcap
gpumem-pcap -q --src 2001:db8::1 in.csv | gpumem-read -q
