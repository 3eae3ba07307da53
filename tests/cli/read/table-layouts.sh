# The plain nvidia-smi table in two layouts: a 2019 driver (two rows per
# GPU, process rows without GI and CI) and a 2024 one (three rows per GPU,
# GI and CI), two GPUs each, logged by a loop with its date lines.  A
# process missing from the next table ended there; "No running processes
# found" is a poll that found none.  poll2019 (tests/lib.sh, whose
# table2019_log is the 2019 log here) and poll2024 write one poll of each
# driver as the loop logs it: the date, the table with the one row that
# changes (GPU 1's, GPU 0's memory), the process rows.
. "$TESTS/lib.sh"
table2019_log > old.log
gpumem-read old.log
poll2024() {
	date=$1 gpu0=$2; shift 2
	cat <<LOG
$date       
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA L40S                    On  |   00000000:4A:00.0 Off |                    0 |
$gpu0
|                                         |                        |                  N/A |
+-----------------------------------------+------------------------+----------------------+
|   1  NVIDIA L40S                    On  |   00000000:4B:00.0 Off |                    0 |
| N/A   27C    P8             32W /  350W |       0MiB /  46068MiB |      0%      Default |
|                                         |                        |                  N/A |
+-----------------------------------------+------------------------+----------------------+
                                                                                         
+-----------------------------------------------------------------------------------------+
| Processes:                                                                              |
|  GPU   GI   CI        PID   Type   Process name                              GPU Memory |
|        ID   ID                                                               Usage      |
|=========================================================================================|
LOG
	printf '%s\n' "$@"
	echo '+-----------------------------------------------------------------------------------------+'
}
{
	poll2024 'Tue Oct 29 19:01:23 2024' \
	    '| N/A   53C    P0            305W /  350W |   11948MiB /  46068MiB |     93%      Default |' \
	    '|    0   N/A  N/A   3794277      C   python                                      11942MiB |'
	poll2024 'Tue Oct 29 19:02:23 2024' \
	    '| N/A   27C    P8             32W /  350W |       0MiB /  46068MiB |      0%      Default |' \
	    '|  No running processes found                                                             |'
} > new.log
gpumem-read new.log
# Without the date line: --start, else refused.
sed 1d new.log | sed '/^Tue/d' > nodate.log
gpumem-read -q --start 2024-10-29T19:01:23Z --interval 1m nodate.log | tail -n 2
rc=0; gpumem-read nodate.log || rc=$?; echo "exit $rc"
