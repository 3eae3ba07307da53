# Each record's memory_total and host as it gives them: GPUs of other
# sizes side by side, records without a total between them, hosts of the
# same length and of others (the writer keeps the last host's field and
# the last total's digits: a record of another writes its own).  The
# records are made with awk, in time order, so read gives them back.
. "$TESTS/lib.sh"
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free," \
	    "memory_total,process_name"
	for (i = 0; i < 4; i++) {
		t = 1767225600 + i
		printf "%d000000000,n1,0,0,100,81459,81559,\n", t
		printf "%d000000000,n1,1,0,100,40860,40960,\n", t
		printf "%d000000000,n1,2,0,100,,,\n", t
		printf "%d000000000,n1,3,0,100,40860,40960,\n", t
		printf "%d000000000,n2,0,0,7,9,16,\n", t
		printf "%d000000000,n2,0,4242,7,9,16,train\n", t
		printf "%d000000000,n10,0,0,100,1,101,\n", t
		printf "%d000000000,\"a,b\",0,0,5,5,10,\n", t
		printf "%d000000000,,0,0,5,5,10,\n", t
		printf "%d000000000,n1,4,0,100,81459,81559,\n", t
	}
}' > want.csv
gpumem-read -q want.csv > got.csv
diff want.csv got.csv || die "read did not give the records back as they are"
