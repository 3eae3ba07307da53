# The dmon of tests/corpus was run with -s u: no fb column, so no
# memory data; it is refused with one line that says so.
. "$TESTS/lib.sh"
need_corpus real/dmon
d=$CORPUS/real/dmon
f=full-bot_dmon-s-u_utilization-only.log
rc=0; gpumem-read "$d/$f" > out.csv 2> err.txt || rc=$?
expect_eq "exit" $rc 2
expect_eq "refusal" "$(cat err.txt)" "gpumem-read: $d/$f: no memory column (fb): a utilization-only dmon (-s u) holds no memory data (its 'mem' is the memory controller's load in %); record with -s m or -s um"
expect_eq "records" "$(nrec out.csv)" 0
# Detected by content: --format dmon says the same.
gpumem-read --format dmon "$d/$f" 2>&1 >/dev/null | grep -q "utilization-only dmon (-s u)" || die "--format dmon"
expect_eq "files in the folder" "$(ls "$d" | wc -l | tr -d ' ')" 1
