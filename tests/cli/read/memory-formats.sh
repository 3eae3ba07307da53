# Many -q -x documents, many exporter scrapes and a long pmon take the
# same peak memory as a few: each is read as a stream, a document or a
# scrape at a time.  (Memory is measured, nothing is timed.)
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "peak RSS is only meaningful without sanitizers"

xml() {	# xml N: N documents, two GPUs, a process, one second apart
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			t = 1700000000 + i
			printf "<?xml version=\"1.0\" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v13.dtd\">\n<nvidia_smi_log>\n"
			printf "\t<timestamp>%s</timestamp>\n\t<attached_gpus>2</attached_gpus>\n", strftime("%a %b %e %H:%M:%S %Y", t, 1)
			for (g = 0; g < 2; g++) {
				printf "\t<gpu id=\"00000000:0%d:00.0\">\n\t\t<fb_memory_usage>\n", g + 1
				printf "\t\t\t<total>81920 MiB</total>\n\t\t\t<reserved>500 MiB</reserved>\n"
				printf "\t\t\t<used>%d MiB</used>\n\t\t\t<free>%d MiB</free>\n\t\t</fb_memory_usage>\n", i % 8000, 81420 - i % 8000
				printf "\t\t<processes>\n\t\t\t<process_info>\n\t\t\t\t<pid>%d</pid>\n\t\t\t\t<type>C</type>\n", 1000 + g + int(i / 100)
				printf "\t\t\t\t<process_name>python</process_name>\n\t\t\t\t<used_memory>%d MiB</used_memory>\n", i % 8000
				printf "\t\t\t</process_info>\n\t\t</processes>\n\t</gpu>\n"
			}
			printf "</nvidia_smi_log>\n"
		}
	}'
}
prom() {	# prom N: N dcgm-exporter scrapes of 8 GPUs, each with a time line
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			printf "# timestamp: @%d\n", 1700000000 + 15 * i
			split("USED FREE RESERVED", m, " ")
			for (k = 1; k <= 3; k++) {
				printf "# HELP DCGM_FI_DEV_FB_%s x\n# TYPE DCGM_FI_DEV_FB_%s gauge\n", m[k], m[k]
				for (g = 0; g < 8; g++)
					printf "DCGM_FI_DEV_FB_%s{gpu=\"%d\",UUID=\"GPU-%04d\",Hostname=\"n1\"} %d\n", m[k], g, g, (i + g) % 40000
			}
		}
	}'
}
pmon() {	# pmon N: N samples of two GPUs, -o DT
	awk -v n="$1" 'BEGIN {
		print "#Date       Time        gpu         pid   type     sm    mem     fb    command"
		print "#YYYYMMDD   HH:MM:SS    Idx           #    C/G      %      %     MB    name"
		for (i = 0; i < n; i++) {
			t = strftime("%Y%m%d   %H:%M:%S", 1700000000 + i, 1)
			printf " %s      0 %11d     C     50     10 %6d    python\n", t, 2000 + int(i / 50), i % 9000
			printf " %s      1           -     -      -      -      -    -\n", t
		}
	}'
}
check() {	# check NAME SMALL-N BIG-N MIN-BYTES
	"$1" "$2" > small.in
	"$1" "$3" > big.in
	size=$(wc -c < big.in)
	[ "$size" -gt "$4" ] || die "$1: big input is only $size bytes"
	small=$("$TOOLS/maxrss" /dev/null gpumem-read -q small.in)
	large=$("$TOOLS/maxrss" /dev/null gpumem-read -q big.in)
	echo "$1: peak RSS $small KiB for $(wc -c < small.in) bytes, $large KiB for $size bytes" >&2
	[ $((large - small)) -lt 2048 ] || die "$1: peak RSS grew from $small KiB to $large KiB"
}
check xml 2000 25000 20000000
check prom 1000 12000 20000000
check pmon 5000 200000 20000000
