# nvidia-smi -q text, two reports: GPU memory from "FB Memory Usage" only
# (not BAR1, not a MIG device's "Shared FB Memory Usage"), processes with
# "Not available in WDDM driver model" memory, "Processes : None" ending
# the process listed before.
report() {	# report TIME USED PROCESSES...
	cat <<Q

==============NVSMI LOG==============

Timestamp                                 : $1
Driver Version                            : 590.48.01
CUDA Version                              : 13.1

Attached GPUs                             : 1
GPU 00000000:83:00.0
    Product Name                          : NVIDIA H200
    GPU UUID                              : GPU-cccc
    MIG Device
        Index                             : 0
        Shared FB Memory Usage
            Total                         : 40448 MiB
            Reserved                      : 0 MiB
            Used                          : 11091 MiB
            Free                          : 29357 MiB
    FB Memory Usage
        Total                             : 143771 MiB
        Reserved                          : 614 MiB
        Used                              : $2 MiB
        Free                              : $((143771 - 614 - $2)) MiB
    BAR1 Memory Usage
        Total                             : 262144 MiB
        Used                              : 1 MiB
        Free                              : 262143 MiB
Q
	shift 2
	if [ $# -eq 0 ]; then
		echo "    Processes                             : None"
	else
		echo "    Processes"
		for p in "$@"; do
			echo "        GPU instance ID                   : N/A"
			echo "        Compute instance ID               : N/A"
			echo "        Process ID                        : ${p%%:*}"
			echo "            Type                          : C"
			printf '            Name                          : %s\n' "${p#*:}"
			echo "            Used GPU Memory               : Not available in WDDM driver model"
		done
	fi
	echo "    Capabilities"
	echo "        EGM                                   : disabled"
}
{
	report "Fri Jul  3 22:11:09 2026" 32362 "10291:C:\\Program Files\\app.exe"
	report "Fri Jul  3 22:11:19 2026" 0
} > q.txt
gpumem-read q.txt
