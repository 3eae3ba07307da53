# read -j N writes what -j 1 writes, byte for byte, on stdout and stderr,
# with the same exit status: many node logs made by gpumem synth (record
# streams and nvidia-smi logs, --host-from-file), times overlapping across
# inputs, one input, more threads than inputs.  Each run's -j 1 output is
# also shown (the .stdout golden): the diagnostics, in their order.
. "$TESTS/lib.sh"
same() {
	same_jobs gpumem-read "$@"
}
for i in 1 2 3 4 5 6 7 8 9; do
	gpumem-synth -s random --seed $i --host node$i --duration 10m \
	    --gpus 4 -o node$i.csv
done
same node*.csv
# Nine node logs of the same host: the same GPUs at the same times.
for i in 1 2 3; do
	gpumem-synth -s random --seed $i --duration 5m --gpus 2 -o same$i.csv
done
same same1.csv same2.csv same3.csv
# nvidia-smi logs as gpumem record writes them, a directory per node.
for i in 1 2 3 4; do
	gpumem-synth -s two-loops --seed $i --lose-polls 5 --lose-lines 5 \
	    --nvsmi n$i > /dev/null
	mkdir -p host$i
	cp n$i/query-gpu.csv host$i/node$i-query-gpu.csv
	cp n$i/compute-apps.csv host$i/node$i-compute-apps.csv
done
same --host-from-file='node[0-9]' host1 host2 host3 host4
# Process logs before the device logs that number their GPUs: the
# numbering follows what the device logs said when each record merged.
same n1/compute-apps.csv n2/compute-apps.csv n1/query-gpu.csv n2/query-gpu.csv
# One input; more threads than inputs; the same file twice.
same node1.csv
same node1.csv node2.csv
same node3.csv node3.csv
# One input far larger than the others (the default reads them without
# threads) and inputs of one size (the default uses them): as -j 1.
gpumem-synth -s random --seed 11 --host small --duration 30s --gpus 4 \
    -o small.csv
same node1.csv small.csv
same node1.csv node2.csv small.csv
same -q --gpu 1 --since 2026-01-01T00:02:00Z node1.csv node2.csv node4.csv
# Mixed formats: captures (UDP pcap, TCP pcapng gzipped) beside
# nvidia-smi CSV and record streams.
gpumem-synth -s multi-gpu --gmem --host 10.0.0.7 > g.csv
gpumem-synth -s concurrent --gmem --host 10.0.0.8 > g2.csv
gpumem-pcap -q g.csv > g.pcap
gpumem-pcap -q --tcp --pcapng g2.csv | gzip > g2.pcapng.gz
same g.pcap g2.pcapng.gz n1/query-gpu.csv n1/compute-apps.csv node2.csv
same --port 9717 g2.pcapng.gz g.pcap
# A GPU the device log names late (its rows lost until then): the process
# rows merged before are numbered by first appearance, as -j 1 does, a
# worker having read further makes no difference.
gpumem-synth -s demo --nvsmi demo > /dev/null
awk -F', ' 'NR == 1 || $2 == 0 || NR > 400' demo/query-gpu.csv > late.csv
same --window 8 demo/compute-apps.csv late.csv
