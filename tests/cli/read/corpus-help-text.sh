# An nvidia-smi help text holds field names, no data: refused, saying so.
. "$TESTS/lib.sh"
need_corpus real/help-text
d=$CORPUS/real/help-text
f=netdata_help-query-gpu_2022.txt
rc=0; gpumem-read "$d/$f" > out.csv 2> err.txt || rc=$?
expect_eq "exit" $rc 2
expect_eq "refusal" "$(cat err.txt)" "gpumem-read: $d/$f: an nvidia-smi help text (--help-query-gpu): a list of field names, no data"
expect_eq "files in the folder" "$(ls "$d" | wc -l | tr -d ' ')" 1
