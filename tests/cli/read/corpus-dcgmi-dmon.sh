# dcgmi dmon -e 203,204,155,150,310,311,252 -c 5: FBUSD is the only memory
# field, and dcgmi prints no time: refused without --interval, read with it.
. "$TESTS/lib.sh"
need_corpus real/dcgmi-dmon
d=$CORPUS/real/dcgmi-dmon
f=agi-hpc_rtx2080ti_dcgm3.3.5_fields-203-204-155-150-310-311-252.txt
rc=0; gpumem-read "$d/$f" > out.csv 2> err.txt || rc=$?
expect_eq "no clock: exit" $rc 2
expect_eq "no clock" "$(cat err.txt)" "gpumem-read: $d/$f: rows carry no time (dcgmi dmon prints none, and its -d is not in the output): give --interval (the -d used, in ms) and --start"
gpumem-read --interval 1s --start 2024-05-01T10:00:00Z "$d/$f" > out.csv 2> err.txt || die "exit $?: $(cat err.txt)"
expect_eq "summary" "$(cat err.txt)" "gpumem-read: $d/$f: 5 records (dcgmi dmon, 5 samples of 1 GPU, times from --start and --interval; device only: no per-process data, tasks are its usage's episodes, or --tasks)"
expect_eq "records" "$(nrec out.csv)" 5
# An idle GPU: FBUSD 0, no FBFRE or FBTTL in this field list.
expect_eq "first" "$(sed -n 2p out.csv)" "1714557600000000000,,0,0,0,,,"
expect_eq "fifth" "$(sed -n 6p out.csv)" "1714557604000000000,,0,0,0,,,"
expect_eq "files in the folder" "$(ls "$d" | wc -l | tr -d ' ')" 1
