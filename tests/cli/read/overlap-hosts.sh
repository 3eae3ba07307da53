# Device samples of one GPU from two inputs at the same times are said
# once (two recordings read as one GPU); two hosts' GPUs of the same
# indexes at the same times, or one recording split into two files, are
# not.  The merged records alternate between the hosts, and so do one
# input's when it holds two hosts, so the spans the check keeps for an
# input's last host (stream.c) must be that host's alone.
. "$TESTS/lib.sh"
for h in 1 2; do
	gpumem-synth -s random --seed $h --host node-$h --gpus 4 \
	    --interval 1s --duration 2m -o node-$h.csv
done
# The second node's log as if the first had written it too.
sed 's/,node-2,/,node-1,/' node-2.csv > twin.csv
# The first node's log cut in two at one minute, a header each.
awk -F, 'NR == 1 || $1 < 1767225660000000000' node-1.csv > part1.csv
awk -F, 'NR == 1 || $1 >= 1767225660000000000' node-1.csv > part2.csv
# The first minute of the first node and all of the second in one file.
{ head -n 1 part1.csv; tail -n +2 part1.csv; tail -n +2 node-2.csv; } |
    sort -s -t, -k1,1n > both.csv
for j in 1 2; do
	echo "two hosts, -j $j"
	gpumem-read -j $j node-1.csv node-2.csv > /dev/null
	echo "one host twice, -j $j"
	gpumem-read -j $j node-1.csv twin.csv > /dev/null
	echo "one recording in two files, -j $j"
	gpumem-read -j $j part2.csv part1.csv > /dev/null
	echo "two hosts in one file, one of them continued in another, -j $j"
	gpumem-read -j $j both.csv part2.csv > /dev/null
done 2>&1
