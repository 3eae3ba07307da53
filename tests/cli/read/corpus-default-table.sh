# The plain nvidia-smi table logged every 60 s by a slurm job (trimmed to
# 250 snapshots), and a terminal capture of watch nvidia-smi, refused.
. "$TESTS/lib.sh"
need_corpus real/default-table
d=$CORPUS/real/default-table

f=slurmmwe_l40s_drv550_nvidia-smi-every-60s.log
gpumem-read "$d/$f" > out.csv 2> err.txt || die "$f: exit $?: $(cat err.txt)"
expect_eq "summary" "$(cat err.txt)" "gpumem-read: $d/$f: 87 records (nvidia-smi table, 250 snapshots of 1 GPU); skipped 251: 251 duplicate samples"
# 250 tables, of which 194 repeat the one before in the same second (the
# loop without its sleep, below): 56 device samples, 32 process rows, and
# the end of the first python.
expect_eq "records" "$(nrec out.csv)" 88
expect_eq "device samples" "$(tail -n +2 out.csv | awk -F, '$4 == 0' | wc -l | tr -d ' ')" 56
expect_eq "idle GPU" "$(sed -n 2p out.csv)" "1730228423000000000,,0,0,0,,46068,"
expect_eq "python starts" "$(sed -n 4p out.csv)" "1730228483000000000,,0,3794277,11942,,,python"
# Listed at 19:01:23, 19:02:23 and 19:03:24; gone from the 19:04:24 table.
expect_eq "python ends" "$(sed -n 10p out.csv)" "1730228664000000000,,0,3794277,0,,,python"
# From 19:11:46 the loop ran without its sleep: ~10 tables a second, one
# timestamp each (the table's date has whole seconds); those that repeat
# the table before them are duplicate samples, the others are all kept.
expect_eq "tables in one second" "$(grep -c '^1730229122000000000,' out.csv)" 18
expect_eq "second python" "$(sed -n 35p out.csv)" "1730229122000000000,,0,3796615,14,,,python"
expect_eq "last" "$(tail -n 1 out.csv)" "1730229132000000000,,0,3796615,11942,,,python"

f=hirataken_watch-nvidia-smi_ansi-escapes.log
rc=0; gpumem-read "$d/$f" > out.csv 2> err.txt || rc=$?
expect_eq "watch capture: exit" $rc 2
expect_eq "watch capture" "$(cat err.txt)" "gpumem-read: $d/$f: a terminal capture (watch nvidia-smi: cursor motion and partial screen updates), not a log; log the table with a loop such as 'while true; do nvidia-smi; sleep 60; done'"
expect_eq "watch capture: no records" "$(nrec out.csv)" 0

expect_eq "files in the folder" "$(ls "$d" | wc -l | tr -d ' ')" 2
