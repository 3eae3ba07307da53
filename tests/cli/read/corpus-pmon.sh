# The pmon of tests/corpus (-s um, fb after the utilization columns)
# has no time column: refused without a clock, read with --start.
. "$TESTS/lib.sh"
need_corpus real/pmon
d=$CORPUS/real/pmon
f=silk_physics_pmon-s-um_fb-ccpm.log
rc=0; gpumem-read "$d/$f" > out.csv 2> err.txt || rc=$?
expect_eq "no clock: exit" $rc 2
expect_eq "no clock" "$(cat err.txt)" "gpumem-read: $d/$f: rows carry no time (pmon without -o DT): give --interval (its -d, 1s by default) and --start"
gpumem-read --start 2025-03-01T12:00:00Z "$d/$f" > out.csv 2> err.txt || die "exit $?: $(cat err.txt)"
expect_eq "summary" "$(cat err.txt)" "gpumem-read: $d/$f: 1 records (nvidia-smi pmon, 1 sample of 1 GPU, times from --start and --interval)"
# fb 10 MB of process "demo" (name right-trimmed), not ccpm 0 nor mem 0.
expect_eq "demo" "$(tail -n +2 out.csv)" "1740830400000000000,,0,439323,10,,,demo"
expect_eq "files in the folder" "$(ls "$d" | wc -l | tr -d ' ')" 1
