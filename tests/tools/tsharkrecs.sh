#!/bin/sh
# SPDX-License-Identifier: ISC
# tsharkrecs PCAP [TSHARK OPTION...]: the records tshark exports with the
# GMEM dissector (contrib/wireshark/gmem.lua), one record-stream line each
# as gpumem read writes them (without the header), in packet order.  Each
# packet's sender and the header fields of each of its frames are paired
# with the frame's records by gmem.count (a frame that is not exported
# has no gmem.* field).  Exit 1 when tshark fails.
lua=$(dirname "$0")/../../contrib/wireshark/gmem.lua
pcap=$1
shift
tshark -X lua_script:"$lua" -r "$pcap" "$@" -T fields -e ip.src \
    -e ipv6.src -e gmem.gpu -e gmem.count -e gmem.memory_total \
    -e gmem.timestamp -e gmem.process_id -e gmem.memory_used \
    -e gmem.memory_free > tsharkrecs.txt 2> tsharkrecs.err ||
	{ cat tsharkrecs.err >&2; exit 1; }
awk -F '\t' '
$4 == "" { next }
{
	host = $1 != "" ? $1 : $2
	nf = split($3, gpu, ","); split($4, count, ",")
	split($5, total, ","); split($6, ts, ","); split($7, pid, ",")
	split($8, used, ","); split($9, free, ",")
	r = 1
	for (f = 1; f <= nf; f++)
		for (i = 0; i < count[f]; i++) {
			printf "%s,%s,%s,%s,%s,%s,%s,\n", ts[r], host,
			    gpu[f], pid[r], used[r], free[r],
			    total[f] == 0 ? "" : total[f]
			r++
		}
}' tsharkrecs.txt
rm -f tsharkrecs.txt tsharkrecs.err
