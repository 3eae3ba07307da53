# compute-apps rows of pid 0 (nvidia-smi in a container without the host's
# pid namespace) are processes, not lost: the rows of one poll with the
# same GPU and name are one process holding their sum, under a process id
# above every real one (2^30 + a hash of the name), and it ends when no
# longer listed.  The sums are checked against awk's over the log.
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]"
	for (t = 1; t <= 6; t++) {
		ts = sprintf("2026/01/01 00:00:%02d.000", t)
		printf "%s, GPU-a, 0, python train.py, 1000 MiB\n", ts
		if (t <= 3)
			printf "%s, GPU-a, 0, python train.py, 2000 MiB\n", ts
		if (t >= 2 && t <= 4)
			printf "%s, GPU-b, 0, [Not Found], %d MiB\n", ts, 100 * t
		printf "%s, GPU-b, 4242, host-visible, 5 MiB\n", ts
	}
}' > apps.csv
gpumem-read -v apps.csv > out.csv 2> err.txt
cat out.csv
grep -v 'no device log' err.txt
# Truth from the log itself, summed by awk: time, GPU, name -> MiB.
awk -F', ' '$3 == "0" { s[$1 "|" $2 "|" $4] += $5 + 0 }
	END { for (k in s) print k "|" s[k] }' apps.csv | sort > want.txt
awk -F, 'NR > 1 && $4 >= 1073741824 && $5 > 0 {
	printf "2026/01/01 00:00:%02d.000|GPU-%s|%s|%d\n",
	    ($1 - 1767225600000000000) / 1000000000, $3 == 0 ? "a" : "b",
	    $8 == "" ? "[Not Found]" : $8, $5
}' out.csv | sort > got.txt
cmp want.txt got.txt || die "sums differ: $(diff want.txt got.txt)"
echo "sums as awk's: $(wc -l < got.txt) process samples"
