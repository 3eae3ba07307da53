# utkuozdemir/nvidia_gpu_exporter's golden scrape of the H200 under load:
# bytes to MiB, the index from nvidia_smi_index, three processes.  The
# values are those of the same machine's capture bundle (load section).
. "$TESTS/lib.sh"
need_corpus real/prom-nvidia-gpu-exporter
d=$CORPUS/real/prom-nvidia-gpu-exporter
f=nvgpuexp_h200_drv590_load.metrics
rc=0; gpumem-read "$d/$f" > out.csv 2> err.txt || rc=$?
expect_eq "no clock: exit" $rc 2
grep -q "samples carry no timestamps and no line gives the scrape's time: give --start" err.txt || die "no clock: $(cat err.txt)"
gpumem-read --start 2026-07-03T22:11:10Z "$d/$f" > out.csv 2> err.txt || die "exit $?: $(cat err.txt)"
expect_eq "summary" "$(cat err.txt)" "gpumem-read: $d/$f: 4 records (Prometheus text of nvidia_gpu_exporter, 1 scrape, times from --start and --interval)"
expect_eq "records" "$(tail -n +2 out.csv)" "1783116670000000000,,0,0,32362,110796,143771,
1783116670000000000,,0,10291,2566,,,/root/tools/memhog
1783116670000000000,,0,10293,1542,,,/root/tools/memhog
1783116670000000000,,0,10309,28234,,,./gpu_burn"
expect_eq "files in the folder" "$(ls "$d" | wc -l | tr -d ' ')" 1
