# Two dcgm-exporter scrapes kept by Datadog: a T4 on 460.106 (FB_FREE,
# FB_USED) and one on 470.182 with FB_TOTAL, FB_RESERVED (copied from
# FB_TOTAL, says the file) and FB_USED_PERCENT only, so no used or free.
. "$TESTS/lib.sh"
need_corpus real/dcgm-exporter-prom
d=$CORPUS/real/dcgm-exporter-prom
f=datadog_tesla-t4_drv460-470_dcgm-exporter.prom
rc=0; gpumem-read "$d/$f" > out.csv 2> err.txt || rc=$?
expect_eq "no clock: exit" $rc 2
expect_eq "no clock" "$(cat err.txt)" "gpumem-read: $d/$f: samples carry no timestamps and no line gives the scrape's time: give --start (and --interval for a file of many scrapes)"
gpumem-read --start 2023-06-01T00:00:00Z "$d/$f" > out.csv 2> err.txt || die "exit $?: $(cat err.txt)"
expect_eq "summary" "$(cat err.txt)" "gpumem-read: $d/$f: 1 records (Prometheus text of dcgm-exporter, 1 scrape, times from --start and --interval; device only: no per-process data, tasks are its usage's episodes, or --tasks); skipped 2: 1 comment lines, 1 GPU samples without used or free memory"
# The Hostname label is the host; total = used + free (no FB_TOTAL there).
expect_eq "record" "$(tail -n +2 out.csv)" "1685577600000000000,424773df46e0,0,0,0,15109,15109,"
expect_eq "files in the folder" "$(ls "$d" | wc -l | tr -d ' ')" 1
