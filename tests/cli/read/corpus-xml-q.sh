# Every nvidia-smi -q -x file of tests/corpus (DTD v7 to v13): a
# checked record count and checked records.
. "$TESTS/lib.sh"
need_corpus real/xml-q
d=$CORPUS/real/xml-q

# check FILE COUNT [OPTIONS...]: read quietly, check the count and status.
check() {
	f=$1 want=$2
	shift 2
	rc=0; gpumem-read -q "$@" "$d/$f" > "$f.out" 2> "$f.err" || rc=$?
	[ $rc -eq 0 ] || die "$f: exit $rc: $(cat "$f.err")"
	expect_eq "$f: records" "$(nrec "$f.out")" "$want"
}
row() {
	sed -n "$(($2 + 1))p" "$1.out"
}

# v7 (2017): no <reserved>, a 4-digit PCI domain; total = used + free.
check rai-project_grid-k520_drv352.99_v7.xml 1
expect_eq "k520" "$(row rai-project_grid-k520_drv352.99_v7.xml 1)" "1486855918000000000,,0,0,11,4084,4095,"
# The same machine with the DTD inline (--dtd): read the same way.
check rai-project_grid-k520_drv352_v7_inline-dtd.xml 1
expect_eq "k520 inline DTD" "$(row rai-project_grid-k520_drv352_v7_inline-dtd.xml 1)" "1486856108000000000,,0,0,11,4084,4095,"
gpumem-read "$d/rai-project_grid-k520_drv352_v7_inline-dtd.xml" 2>&1 >/dev/null | grep -q '1 records (nvidia-smi -q -x XML, 1 document, DTD v7)$' || die "inline DTD: version not found"

# No DOCTYPE (418.43), spaces for tabs.
check telegraf_gtx-1660-ti_drv418.43.xml 1
expect_eq "1660 Ti" "$(row telegraf_gtx-1660-ti_drv418.43.xml 1)" "1553887184000000000,,0,0,0,5912,5912,"

# v10, trimmed: no <timestamp>.  Refused without a clock, read with one.
rc=0; gpumem-read "$d/telegraf_gtx-1070-ti_v10.xml" > v10.out 2> v10.err || rc=$?
expect_eq "v10 without --start: exit" $rc 2
expect_eq "v10 without --start" "$(cat v10.err)" "gpumem-read: $d/telegraf_gtx-1070-ti_v10.xml: the document has no <timestamp>: give --start (and --interval for a log of many documents)"
check telegraf_gtx-1070-ti_v10.xml 1 --start 2020-01-01T00:00:00Z
expect_eq "v10" "$(row telegraf_gtx-1070-ti_v10.xml 1)" "1577836800000000000,,0,0,42,4054,4096,"

# v11: R510 reserved memory counts in the total only through <total>.
check netdata_tesla-p100_drv510.47.03_v11_reserved.xml 1
expect_eq "p100" "$(row netdata_tesla-p100_drv510.47.03_v11_reserved.xml 1)" "1663434410000000000,,0,0,0,16280,16384,"
check telegraf_tesla-t4_drv515_v11.xml 3
expect_eq "t4 device" "$(row telegraf_tesla-t4_drv515_v11.xml 1)" "1682353359000000000,,0,0,1032,13939,15360,"
expect_eq "t4 python" "$(row telegraf_tesla-t4_drv515_v11.xml 3)" "1682353359000000000,,0,5762,1005,,,python"
# Windows WDDM: 26 processes, memory N/A, 5 without a name.
check netdata_rtx-2080_windows-wddm_drv516.59_v11.xml 27
expect_eq "wddm device" "$(row netdata_rtx-2080_windows-wddm_drv516.59_v11.xml 1)" "1663682859000000000,,0,0,862,7147,8192,"
expect_eq "wddm unnamed" "$(grep -c '^1663682859000000000,,0,[0-9]*,,,,$' netdata_rtx-2080_windows-wddm_drv516.59_v11.xml.out)" 5
expect_eq "wddm explorer" "$(grep ',14296,' netdata_rtx-2080_windows-wddm_drv516.59_v11.xml.out)" '1663682859000000000,,0,14296,,,,C:\Windows\explorer.exe'

# v12: a one-space day; a command line with commas (quoted); MIG.
check netdata_rtx-4090_drv535.86.05_v12_single-space-day.xml 1
expect_eq "4090" "$(row netdata_rtx-4090_drv535.86.05_v12_single-space-day.xml 1)" "1691406606000000000,,0,0,2,24214,24564,"
check telegraf_rtx-3080_drv536.40_v12.xml 6
expect_eq "3080 Xorg" "$(row telegraf_rtx-3080_drv536.40_v12.xml 2)" "1689872450000000000,,0,835,550,,,/usr/lib/Xorg"
grep -q '^1689872450000000000,,0,2214,79,,,"/opt/microsoft/msedge/msedge --type=gpu-process --crashpad-handler-pid=2176 --enable-crash-reporter=, ' telegraf_rtx-3080_drv536.40_v12.xml.out || die "3080: msedge with commas"
# The A100 holds 4 MIG devices: their memory is in the GPU's (4 x 12 + 2).
# attached_gpus says 4 but the trimmed file has one: keyed by bus id.
check telegraf_a100-sxm4-mig_drv535_v12.xml 1
expect_eq "a100" "$(row telegraf_a100-sxm4-mig_drv535_v12.xml 1)" "1691149470000000000,,0,0,50,80999,81920,"
gpumem-read "$d/telegraf_a100-sxm4-mig_drv535_v12.xml" 2>&1 >/dev/null | grep -q '1 records (nvidia-smi -q -x XML, 1 document, DTD v12, 4 MIG devices (their memory counted in their GPU))$' || die "a100: MIG devices not said"

# v13: two GPUs, one process on both; tabs.
check telegraf_dual-a5000_v13.xml 4
expect_eq "a5000 GPU 1" "$(row telegraf_dual-a5000_v13.xml 3)" "1767088014000000000,,1,0,17253,6862,24564,"
expect_eq "a5000 GPU 1 llama" "$(row telegraf_dual-a5000_v13.xml 4)" "1767088014000000000,,1,100477,17246,,,/root/src/llama.cpp/build/bin/llama-server"
check telegraf_pro6000-blackwell_v13.xml 2
expect_eq "pro6000" "$(row telegraf_pro6000-blackwell_v13.xml 2)" "1767088197000000000,,0,116860,65710,,,/root/src/llama.cpp/build/bin/llama-server"
check telegraf_rtx-4000-sff-ada_drv595.84_v13.xml 5
expect_eq "4000 ada device" "$(row telegraf_rtx-4000-sff-ada_drv595.84_v13.xml 1)" "1785978220000000000,,0,0,3534,16482,20475,"
expect_eq "4000 ada python" "$(row telegraf_rtx-4000-sff-ada_drv595.84_v13.xml 4)" "1785978220000000000,,0,4937,160,,,python"

expect_eq "files in the folder" "$(ls "$d" | wc -l | tr -d ' ')" 13
