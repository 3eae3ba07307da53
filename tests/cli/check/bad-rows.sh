# A task table (the CSV of gpumem tasks) with one damaged row: check reads
# it strictly, so each is trouble (exit 2) with the row's line and what is
# wrong with it.  The rows are written as gpumem tasks writes them: a
# released task, 4096 MiB back 0 s after its end, between 0 and 1.5 s.
. "$TESTS/lib.sh"
head=host,gpu,process_id,name,start,end,peak_mib,held_mib,release
head=$head,release_delay_s,leaked_mib,status
s=1767225603500000000 e=1767225623500000000 r=1767225620000000000
table() {	# HOST GPU PID NAME PEAK RELEASE DELAY LEAKED STATUS LO HI NOTE [MORE]
	printf '%s,delay_min_s,delay_max_s,note\n' "$head"
	printf '%s,%s,%s,%s,%s,%s,%s,4096,%s,%s,%s,%s,%s,%s,%s%s\n' "$1" "$2" \
	    "$3" "$4" $s $e "$5" "$6" "$7" "$8" "$9" "${10}" "${11}" "${12}" \
	    "${13:-}"
}
run() {	# WHAT, the table on stdin
	cat > t.csv
	rc=0; gpumem-check t.csv 2>err || rc=$?
	echo "$1: exit $rc: $(head -n 1 err)"
}
table '' 0 500 train.py 4096 $r 0 0 released 0.000 1.500 '' | run good
table '' 0 500 '"train, v2"' 4096 $r 0 0 released 0.000 1.500 '' |
	run "quoted name"
table '' 0 500 '"train.py' 4096 $r 0 0 released 0.000 1.500 '' |
	run "open quote"
table '' 0 500 '"train"x' 4096 $r 0 0 released 0.000 1.500 '' |
	run "text after a quote"
table '' 0 500 train.py 4096 $r 0 0 released 0.000 1.500 '' ,x |
	run "16 fields"
printf '%s\n,0,500,train.py,%s,%s,4096,4096,%s,0,0\n' "$head" $s $e $r |
	run "11 fields"
table '' x 500 train.py 4096 $r 0 0 released 0.000 1.500 '' | run "gpu x"
table '' 0 -1 train.py 4096 $r 0 0 released 0.000 1.500 '' | run "pid -1"
table '' 0 500 train.py 4.5 $r 0 0 released 0.000 1.500 '' | run "peak 4.5"
table '' 0 500 train.py 4096 soon 0 0 released 0.000 1.500 '' |
	run "release soon"
table '' 0 500 train.py 4096 $r 0 0 done 0.000 1.500 '' | run "status done"
table '' 0 500 train.py 4096 $r 1x 0 released 0.000 1.500 '' |
	run "delay 1x"
table '' 0 500 train.py 4096 $r 0 4294967296 released 0.000 1.500 '' |
	run "leaked 2^32"
table '' 0 500 train.py 4096 $r 0 0 released 0.000 x '' | run "delay_max x"
table '' 0 500 train.py 4096 $r 0 0 released 0.000 1.500 lost |
	run "note lost"
table '' 0 500 train.py 4096 $r 0 0 released 0.000 1.500 'gap;resumed' |
	run "notes gap;resumed"
table '' 0 500 train.py 4096 '' 0 0 released 0.000 1.500 '' |
	run "released, no release"
# An older table, 12 columns, is read; a delay in it is known to within
# what its digits say.
printf '%s\n,0,500,train.py,%s,%s,4096,4096,%s,0,0,released\n' "$head" \
    $s $e $r | run "12 columns"
