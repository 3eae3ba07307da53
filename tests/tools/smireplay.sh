#!/bin/sh
# SPDX-License-Identifier: ISC
# A fake nvidia-smi that replays a recording: prints the polls of $TABLE
# (a query-gpu.csv with a header, as gpumem-synth -n writes it) for
#   sh smireplay.sh --query-gpu=LIST --format=csv[,noheader][,nounits]
# in LIST's order, with the header and units real nvidia-smi prints, as a
# loop under -l writes them into a log.  Fields the table lacks get
# constant values of their kind (name, driver_version, pstate,
# temperature.gpu, power.draw; utilization.gpu follows memory.used).
q= f=csv
for a; do
	case $a in
	--query-gpu=*) q=${a#*=} ;;
	--format=*) f=${a#*=} ;;
	esac
done
awk -v q="$q" -v f="$f" '
BEGIN {
	FS = ", "
	n = split(q, want, ",")
	unit["utilization.gpu"] = " [%]"
	unit["power.draw"] = " [W]"
	unit["memory.total"] = unit["memory.used"] = unit["memory.free"] = \
	    unit["memory.reserved"] = " [MiB]"
}
NR == 1 {
	for (i = 1; i <= NF; i++) { h = $i; sub(/ \[.*/, "", h); col[h] = i }
	if (f ~ /noheader/)
		next
	for (i = 1; i <= n; i++)
		printf "%s%s%s", (i > 1 ? ", " : ""), want[i],
		    (f ~ /nounits/ ? "" : unit[want[i]])
	print ""
	next
}
{
	line = ""
	for (i = 1; i <= n; i++) {
		w = want[i]
		if (w == "name") v = "NVIDIA A10"
		else if (w == "utilization.gpu") v = ($7 + 0 > 0 ? "87 %" : "0 %")
		else if (w == "temperature.gpu") v = "41"
		else if (w == "power.draw") v = "61.25 W"
		else if (w == "driver_version") v = "535.104.05"
		else if (w == "pstate") v = "P0"
		else v = $(col[w])
		if (f ~ /nounits/) sub(/ (MiB|%|W)$/, "", v)
		line = line (i > 1 ? ", " : "") v
	}
	print line
}' "$TABLE"
