#!/bin/sh
# SPDX-License-Identifier: ISC
# smiforms.sh FORM < STREAM: the record stream of a one-loop recording
# (gpumem synth: device and process records at the same whole seconds,
# no host) as nvidia-smi prints it polled at each of its instants, from
# docs/log-formats.md alone (no gpumem code):
#   xml    nvidia-smi -q -x -l 1: a document a poll
#   qtext  nvidia-smi -q -l 1: a report a poll
#   dmon   nvidia-smi dmon -s m -o DT (device records only)
#   table  nvidia-smi -l 1: the plain table a poll
# A process is listed while its records are (its memory_used = 0 record
# is the first poll that no longer lists it).  Times are UTC.
awk -F, -v form="$1" '
# civil(days) -> "Y M D W" (W: 0 Sunday), days since 1970-01-01
function civil(z,   era, doe, yoe, y, doy, mp, d, m) {
	w = (z + 4) % 7
	z += 719468
	era = int(z / 146097)
	doe = z - era * 146097
	yoe = int((doe - int(doe / 1460) + int(doe / 36524) - \
	    int(doe / 146096)) / 365)
	y = yoe + era * 400
	doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
	mp = int((5 * doy + 2) / 153)
	d = doy - int((153 * mp + 2) / 5) + 1
	m = mp < 10 ? mp + 3 : mp - 9
	return (m <= 2 ? y + 1 : y) " " m " " d " " w
}
function stamp(ns,   s, c, hms) {
	s = substr(ns, 1, length(ns) - 9) + 0
	split(civil(int(s / 86400)), c, " ")
	s %= 86400
	hms = sprintf("%02d:%02d:%02d", int(s / 3600), int(s % 3600 / 60),
	    s % 60)
	Y = c[1]; M = c[2]; D = c[3]; W = c[4]; HMS = hms
}
function ctime() {
	return sprintf("%s %s %2d %s %d", substr("SunMonTueWedThuFriSat",
	    W * 3 + 1, 3), substr("JanFebMarAprMayJunJulAugSepOctNovDec",
	    M * 3 - 2, 3), D, HMS, Y)
}
function flush(   g, i, k) {
	if (t == "")
		return
	stamp(t)
	if (form == "xml") {
		print "<?xml version=\"1.0\" ?>"
		print "<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v12.dtd\">"
		print "<nvidia_smi_log>"
		print "\t<timestamp>" ctime() "</timestamp>"
		print "\t<driver_version>535.104.05</driver_version>"
		print "\t<attached_gpus>" ng "</attached_gpus>"
		for (g = 0; g < ng; g++) {
			printf "\t<gpu id=\"00000000:%02X:00.0\">\n", g + 1
			print "\t\t<minor_number>" g "</minor_number>"
			print "\t\t<fb_memory_usage>"
			print "\t\t\t<total>" tot[g] " MiB</total>"
			print "\t\t\t<used>" used[g] " MiB</used>"
			print "\t\t\t<free>" free[g] " MiB</free>"
			print "\t\t</fb_memory_usage>"
			print "\t\t<processes>"
			for (i = 0; i < np; i++) {
				if (pg[i] != g)
					continue
				print "\t\t\t<process_info>"
				print "\t\t\t\t<pid>" pp[i] "</pid>"
				print "\t\t\t\t<type>C</type>"
				print "\t\t\t\t<process_name>" pn[i] "</process_name>"
				print "\t\t\t\t<used_memory>" pu[i] " MiB</used_memory>"
				print "\t\t\t</process_info>"
			}
			print "\t\t</processes>"
			print "\t</gpu>"
		}
		print "</nvidia_smi_log>"
	} else if (form == "qtext") {
		print ""
		print "==============NVSMI LOG=============="
		print ""
		printf "%-38s: %s\n", "Timestamp", ctime()
		printf "%-38s: %s\n", "Driver Version", "535.104.05"
		printf "%-38s: %d\n", "Attached GPUs", ng
		for (g = 0; g < ng; g++) {
			printf "GPU 00000000:%02X:00.0\n", g + 1
			printf "    %-34s: %s\n", "Product Name", "NVIDIA A10"
			printf "    %-34s: %d\n", "Minor Number", g
			print "    FB Memory Usage"
			printf "        %-30s: %d MiB\n", "Total", tot[g]
			printf "        %-30s: %d MiB\n", "Used", used[g]
			printf "        %-30s: %d MiB\n", "Free", free[g]
			k = 0
			for (i = 0; i < np; i++) {
				if (pg[i] != g)
					continue
				if (k++ == 0)
					print "    Processes"
				printf "        %-30s: %s\n", "GPU instance ID", "N/A"
				printf "        %-30s: %s\n", "Compute instance ID", "N/A"
				printf "        %-30s: %d\n", "Process ID", pp[i]
				printf "            %-26s: %s\n", "Type", "C"
				printf "            %-26s: %s\n", "Name", pn[i]
				printf "            %-26s: %d MiB\n", "Used GPU Memory", pu[i]
			}
			if (k == 0)
				printf "    %-34s: %s\n", "Processes", "None"
		}
	} else if (form == "dmon") {
		if (nd++ % 20 == 0) {
			print "#Date       Time        gpu     fb   bar1"
			print "#YYYYMMDD   HH:MM:SS    Idx     MB     MB"
		}
		for (g = 0; g < ng; g++)
			printf " %04d%02d%02d   %s %6d %6d %6d\n", Y, M, D, HMS, g,
			    used[g], 1
	} else if (form == "table") {
		printf "%s %s %2d %s %d       \n", substr("SunMonTueWedThuFriSat",
		    W * 3 + 1, 3), substr("JanFebMarAprMayJunJulAugSepOctNovDec",
		    M * 3 - 2, 3), D, HMS, Y
		print "+-----------------------------------------------------------------------------------------+"
		print "| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |"
		print "|-----------------------------------------+------------------------+----------------------+"
		print "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |"
		print "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |"
		print "|                                         |                        |               MIG M. |"
		print "|=========================================+========================+======================|"
		for (g = 0; g < ng; g++) {
			printf "|   %d  NVIDIA L40S                    On  |   00000000:%02X:00.0 Off |                    0 |\n", g, g + 1
			printf "| N/A   30C    P8             33W /  350W |  %8s / %6s |      0%%      Default |\n", used[g] "MiB", tot[g] "MiB"
			print "|                                         |                        |                  N/A |"
			print "+-----------------------------------------+------------------------+----------------------+"
		}
		print "                                                                                         "
		print "+-----------------------------------------------------------------------------------------+"
		print "| Processes:                                                                              |"
		print "|  GPU   GI   CI        PID   Type   Process name                              GPU Memory |"
		print "|        ID   ID                                                               Usage      |"
		print "|=========================================================================================|"
		if (np == 0)
			print "|  No running processes found                                                             |"
		for (i = 0; i < np; i++)
			printf "|  %3d   N/A  N/A  %9d      C   %-40s %8s |\n", pg[i], pp[i], pn[i], pu[i] "MiB"
		print "+-----------------------------------------------------------------------------------------+"
	}
	t = ""; ng = 0; np = 0
}
NR == 1 { np = ng = 0; next }
$1 != t { flush(); t = $1 }
$4 == 0 { used[$3] = $5; free[$3] = $6; tot[$3] = $7; if ($3 + 1 > ng) ng = $3 + 1; next }
$5 != 0 { pg[np] = $3; pp[np] = $4; pu[np] = $5; pn[np] = $8; np++ }
END { flush() }
'
