# GB10 / DGX Spark (unified memory): the nvidia-smi table's Memory-Usage
# cell is "Not Supported".  gpumem said nothing and wrote no device
# sample; now it says why once and takes the GPU's used memory as the sum
# of its processes' memory in that table (0 under "No running processes
# found"; no sample when the block is not there).  The tables are written as nvidia-smi 580 prints them on a
# DGX Spark, in a loop under date(1), a minute apart.
. "$TESTS/lib.sh"
# table MINUTE PROCESS-MEMORY...: one snapshot; its processes are Xorg
# (43 MiB) and python3 with each memory given, none when no argument.
table() {
	m=$1
	shift
	awk -v m="$m" -v procs="$*" 'BEGIN {
		rule = "+-----------------------------------------+------------------------+----------------------+"
		wide = "+-----------------------------------------------------------------------------------------+"
		printf "Wed Oct 15 10:%02d:00 2025\n", m
		print wide
		print "| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |"
		print rule
		print "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |"
		print "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |"
		print "|                                         |                        |               MIG M. |"
		print "|=========================================+========================+======================|"
		print "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0  On |                  N/A |"
		print "| N/A   42C    P0             11W /  N/A  | Not Supported          |      0%      Default |"
		print "|                                         |                        |                  N/A |"
		print rule
		print ""
		print wide
		print "| Processes:                                                                              |"
		print "|  GPU   GI   CI              PID   Type   Process name                        GPU Memory |"
		print "|        ID   ID                                                               Usage      |"
		print "|=========================================================================================|"
		n = split(procs, mem, " ")
		if (n == 0)
			print "|  No running processes found                                                             |"
		for (i = 0; i <= n && n > 0; i++)
			printf "|    0   N/A  N/A   %12d      %s   %-35s %9dMiB |\n", (i ? 216580 + i : 3094), (i ? "C" : "G"), (i ? "python3" : "/usr/lib/xorg/Xorg"), (i ? mem[i] : 43)
		print wide
	}'
}
# A last table cut before its process block (the loop killed): no sample.
{ table 0 38040; table 1 60000 2048; table 2; table 3 100 | head -n 12; } > spark.log
gpumem-read spark.log > got
# The device samples: 43 + 38040, 43 + 60000 + 2048, 0.
awk -F, '$4 == 0 { print $1, $3, $5 }' got > dev
printf '%s\n' '1760522400000000000 0 38083' '1760522460000000000 0 62091' '1760522520000000000 0 0' > want
cmp -s dev want || die "device samples differ: $(diff want dev)"
n=$(tail -n +2 got | awk -F, '$4 != 0' | wc -l)
expect_eq "process records (3 of them the ends at the last table)" $n 8
