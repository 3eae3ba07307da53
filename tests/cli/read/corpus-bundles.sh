# The query-gpu and compute-apps sections of the capture bundles; the GPU
# of a process is joined by UUID to the index of the query-gpu section.
. "$TESTS/lib.sh"
need_corpus real/capture-bundle
d=$CORPUS/real/capture-bundle
for f in "$d"/*.txt; do
	gpumem-read "$f" > out.csv 2> err.txt || die "$f: exit $?: $(cat err.txt)"
	b=$(basename "$f")
	case $b in
	*h200*)
		expect_eq "h200" "$(tail -n +2 out.csv)" "1783116646109000000,,0,0,0,143158,143771,
1783116669763000000,,0,0,32362,110796,143771,
1783116669916000000,,0,10291,2566,,,/root/tools/memhog
1783116669916000000,,0,10293,1542,,,/root/tools/memhog
1783116669916000000,,0,10309,28234,,,./gpu_burn" ;;
	*h100-mig*)
		expect_eq "h100 records" "$(nrec out.csv)" 5
		expect_eq "h100 load" "$(sed -n 3p out.csv)" "1784019644579000000,,0,0,11125,69956,81559," ;;
	*l40s*)
		expect_eq "l40s records" "$(nrec out.csv)" 4
		expect_eq "l40s ffmpeg" "$(sed -n 5p out.csv)" "1783067633650000000,,0,20038,681,,,ffmpeg" ;;
	*windows*)
		# WDDM: processes listed, their memory unknown.
		expect_eq "windows records" "$(nrec out.csv)" 42
		expect_eq "windows overlay" "$(grep -c ',,,,C:\\Program Files\\NVIDIA Corporation\\NVIDIA App\\CEF\\NVIDIA Overlay.exe$' out.csv)" 4 ;;
	*) die "unexpected bundle $b" ;;
	esac
	grep -q "(capture bundle: 4 sections read (idle :: query-gpu (csv, what the exporter parses); idle :: query-compute-apps (per-process); load :: query-gpu (csv, what the exporter parses); load :: query-compute-apps (per-process)), 2[34] sections no format reads (-v names them)); skipped [0-9]*: [0-9]* lines of sections not read$" err.txt || die "$b summary: $(cat err.txt)"
done
