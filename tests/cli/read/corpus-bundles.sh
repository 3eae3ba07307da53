# The capture bundles: every section gpumem reads (the default table, -q
# text, query-gpu and compute-apps, idle and under load); the pmon and
# dmon sections were run without the memory group and are refused with
# their reason (-v); the GPU of a process is joined by UUID to the index
# of the query-gpu section.
. "$TESTS/lib.sh"
need_corpus real/capture-bundle
d=$CORPUS/real/capture-bundle
read8="8 sections read (idle :: nvidia-smi (default table); idle :: query (-q); idle :: query-gpu (csv, what the exporter parses); idle :: query-compute-apps (per-process); load :: nvidia-smi (default table); load :: query (-q); load :: query-gpu (csv, what the exporter parses); load :: query-compute-apps (per-process)), 4 without memory data (-v says why)"
for f in "$d"/*.txt; do
	gpumem-read "$f" > out.csv 2> err.txt || die "$f: exit $?: $(cat err.txt)"
	b=$(basename "$f")
	case $b in
	*h200*)
		# Table (no free), -q, query-gpu, then the three sources of
		# the load processes: table, -q (the same second and values
		# as the table's: duplicates), compute-apps.
		expect_eq "h200" "$(tail -n +2 out.csv)" "1783116645000000000,,0,0,0,,143771,
1783116645000000000,,0,0,0,143158,143771,
1783116646109000000,,0,0,0,143158,143771,
1783116669000000000,,0,0,32362,,143771,
1783116669000000000,,0,10291,2566,,,/root/tools/memhog
1783116669000000000,,0,10293,1542,,,/root/tools/memhog
1783116669000000000,,0,10309,28234,,,./gpu_burn
1783116669000000000,,0,0,32362,110796,143771,
1783116669763000000,,0,0,32362,110796,143771,
1783116669916000000,,0,10291,2566,,,/root/tools/memhog
1783116669916000000,,0,10293,1542,,,/root/tools/memhog
1783116669916000000,,0,10309,28234,,,./gpu_burn" ;;
	*h100-mig*)
		# MIG: the GPU's memory holds its instances'; processes of
		# GPU instance 2 are the GPU's.
		expect_eq "h100 records" "$(nrec out.csv)" 15
		expect_eq "h100 load table" "$(sed -n 5,6p out.csv)" "1784019643000000000,,0,0,11125,,81559,
1784019643000000000,,0,21180,2296,,,/root/tools/memhog"
		expect_eq "h100 load query-gpu" "$(sed -n 13p out.csv)" "1784019644579000000,,0,0,11125,69956,81559,"
		grep -q "(capture bundle: $read8" err.txt || die "h100: $(cat err.txt)" ;;
	*l40s*)
		expect_eq "l40s records" "$(nrec out.csv)" 10
		expect_eq "l40s ffmpeg" "$(tail -n 1 out.csv)" "1783067633650000000,,0,20038,681,,,ffmpeg" ;;
	*windows*)
		# WDDM: processes listed, their memory unknown.  The table
		# truncates names on the left; -q and compute-apps do not.
		expect_eq "windows records" "$(nrec out.csv)" 122
		expect_eq "windows overlay" "$(grep -c ',,,,C:\\Program Files\\NVIDIA Corporation\\NVIDIA App\\CEF\\NVIDIA Overlay.exe$' out.csv)" 8
		expect_eq "windows table overlay" "$(grep -c ',,,,...IA App\\CEF\\NVIDIA Overlay.exe$' out.csv)" 4
		expect_eq "windows load table device" "$(grep '^1782296276000000000,,0,0,' out.csv | head -n 1)" "1782296276000000000,,0,0,1366,,8192," ;;
	*) die "unexpected bundle $b" ;;
	esac
	grep -q "(capture bundle: $read8, 1[56] sections no format reads (-v names them)); skipped [0-9]*: [0-9]* lines of sections not read, [0-9]* rows without a memory column (fb)\(, [0-9]* duplicate samples\)\{0,1\}$" err.txt || die "$b summary: $(cat err.txt)"
done
# -v names the refused sections and says why.
gpumem-read -v "$d/nvgpuexp_linux_h200_drv590.48.01.txt" 2>&1 >/dev/null | grep -F "skipped section 'load :: pmon (per-process monitor)': no memory column (fb): a pmon without -s m holds no per-process memory data" > /dev/null || die "-v: pmon reason"
gpumem-read -v "$d/nvgpuexp_linux_h200_drv590.48.01.txt" 2>&1 >/dev/null | grep -F "skipped section 'idle :: dmon (per-device monitor, incl. PCIe rx/tx)': no memory column (fb): a dmon without the memory group (-s m) holds no memory data; record with -s m" > /dev/null || die "-v: dmon reason"
expect_eq "files in the folder" "$(ls "$d" | wc -l | tr -d ' ')" 4
