# A task table whose third line carries a note no gpumem tasks writes:
# check reads it strictly, so it is trouble (exit 2), and the message
# names the file and line and every note a row may carry (the golden
# stderr beside this case).  The notes are also taken from the man page
# of gpumem tasks (what a user reads), and each must be in the message:
# a note added to the table is named there too.
. "$TESTS/lib.sh"
head=host,gpu,process_id,name,start,end,peak_mib,held_mib,release
head=$head,release_delay_s,leaked_mib,status,delay_min_s,delay_max_s,note
row=',0,500,train.py,1767225603500000000,1767225623500000000,4096,4096'
row="$row,1767225620000000000,0,0,released,0.000,1.500"
printf '%s\n%s,gap\n%s,gap;lost\n' "$head" "$row" "$row" > t.csv
rc=0; gpumem-check t.csv 2> err || rc=$?
expect_eq "exit" $rc 2
cat err >&2
# The man page lists them as ".Cm NAME ," between "says why an answer is
# less sure:" and the next paragraph of the CSV's description.
awk '/says why an answer is less sure/ { on = 1; next }
	on && /^Tables of/ { exit }
	on && $1 == ".Cm" { print $2 }' "$TESTS/../analyze/tasks.1" > notes
n=$(wc -l < notes)
expect_eq "notes in tasks.1" $n 11
while read -r note; do
	grep -q "[ :]$note[ ,]" err || die "the message does not name $note"
done < notes
