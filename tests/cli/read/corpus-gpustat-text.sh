# gpustat's default text, logged by cron (with date(1) lines) and every
# minute: host and time from the header, GPU memory, and processes by
# user, each given a stand-in pid (gpustat prints none by default).
. "$TESTS/lib.sh"
need_corpus real/gpustat-text
d=$CORPUS/real/gpustat-text

f=convert-cpu-gpu_8x2080ti_gpustat-default.log
gpumem-read "$d/$f" > out.csv 2> err.txt || die "$f: exit $?: $(cat err.txt)"
expect_eq "8x summary" "$(cat err.txt)" "gpumem-read: $d/$f: 1033 records (gpustat text, 84 polls of 8 GPUs, 21 processes without a pid given stand-in ids from 4194305); skipped 84: 84 date lines"
# 84 polls x 8 GPUs, 361 process entries, and 28 ends of processes.
expect_eq "8x records" "$(nrec out.csv)" 1061
expect_eq "8x device records" "$(tail -n +2 out.csv | awk -F, '$4 == 0' | wc -l | tr -d ' ')" 672
expect_eq "8x ends" "$(grep -c ',0,,,[a-z]*$' out.csv)" 28
# "ml-server2   Mon Sep 14 03:31:09 2020  440.100", then "[5] ... | 10972 / 11019 MB | vignesh(10961M)".
expect_eq "8x GPU 5" "$(sed -n 7p out.csv)" "1600054269000000000,ml-server2,5,0,10972,,11019,"
expect_eq "8x vignesh" "$(sed -n 8p out.csv)" "1600054269000000000,ml-server2,5,4194305,10961,,,vignesh"
# Gone from the next poll (six hours later): ended there.
expect_eq "8x vignesh ends" "$(sed -n 37p out.csv)" "1600084801000000000,ml-server2,5,4194305,0,,,vignesh"
# Three entries of one user on GPU 4: the n-th entry keeps its stand-in.
expect_eq "8x GPU 4, three entries" "$(sed -n 109,111p out.csv)" "1600236001000000000,ml-server2,4,4194307,153,,,shreevijay
1600236001000000000,ml-server2,4,4194310,153,,,shreevijay
1600236001000000000,ml-server2,4,4194313,10625,,,shreevijay"

f=io-workload_rtx2070s_gpustat-per-minute.txt
gpumem-read "$d/$f" > out.csv 2> err.txt || die "$f: exit $?: $(cat err.txt)"
expect_eq "2070 summary" "$(cat err.txt)" "gpumem-read: $d/$f: 36 records (gpustat text, 18 polls of 1 GPU, 1 processes without a pid given stand-in ids from 4194305)"
expect_eq "2070 first" "$(sed -n 2,3p out.csv)" "1671474812000000000,compute3,0,0,3712,,7982,
1671474812000000000,compute3,0,4194305,3709,,,root"
expect_eq "2070 last" "$(tail -n 1 out.csv)" "1671475833000000000,compute3,0,4194305,3709,,,root"
# --host wins over the header's host.
gpumem-read -q --host lab1 "$d/$f" | sed -n 2p | grep -q '^1671474812000000000,lab1,0,0,' || die "--host"

expect_eq "files in the folder" "$(ls "$d" | wc -l | tr -d ' ')" 2
