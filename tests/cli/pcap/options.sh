# Bad option values are refused with the option named, exit 2.
for opt in "--vlan 4096" "--vlan 1,2,3" "--mtu 100" "--link token-ring" \
    "--segment 0" "--dst gpu-host" "--src 300.1.1.1" "--dport 0" \
    "--vlan 7 --link raw"; do
	rc=0; gpumem-pcap -f $opt < /dev/null > out.pcap || rc=$?
	echo "$opt: exit $rc"
	if [ -s out.pcap ]; then echo "$opt: wrote output"; fi
done
