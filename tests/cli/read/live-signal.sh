# read --live stopped by a signal (issue 16 item 9): the records held
# for --lag are written, in order, with everything that had reached the
# input, the summary is said and -o's file committed, exit 0.  A second
# signal ends the run at once and -o's file is not written.
. "$TESTS/lib.sh"
header="timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"

# A FIFO, 199 records sent in pairs swapped (within the lag) while the
# reader is stopped: it has read none of them when the signal comes, and
# the writer stays open (the input has not ended by itself).
awk -v h="$header" 'BEGIN {
	print h > "want.csv"
	print h
	for (i = 1; i <= 199; i++) {
		rec = sprintf("%d000000000,h,0,42,%d,100,1000,train", 1767225600 + i, i)
		print rec > "want.csv"
		if (i % 2 == 1 && i < 199)
			held = rec
		else {
			print rec
			if (held != "")
				print held
			held = ""
		}
	}
}' > sent.csv
[ "$(nrec sent.csv)" -eq 199 ] || die "sent.csv: $(nrec sent.csv) records"
! cmp -s sent.csv want.csv || die "sent.csv is in order"
# SIGINT, as Ctrl-C sends it: a background job of a script ignores it
# unless told not to; SIGHUP is ignored under nohup (a suite started so),
# and gpumem-read keeps a signal it started without (read.c).  env gives
# both back (GNU coreutils 8.31 and later).
env --default-signal=INT,HUP true 2> /dev/null ||
	skip "env has no --default-signal (GNU coreutils 8.31)"
sigs="INT TERM HUP"
dflt=--default-signal=INT,HUP
mkfifo in.fifo
for sig in $sigs; do
	rm -f out.csv
	env $dflt gpumem-read --live --lag 30s -o out.csv in.fifo 2> err.txt &
	pid=$!
	bg_add $pid
	exec 3> in.fifo
	kill -STOP $pid
	cat sent.csv >&3
	kill -$sig $pid
	kill -CONT $pid
	rc=0; wait $pid || rc=$?
	exec 3>&-
	expect_eq "$sig: exit status" $rc 0
	cmp -s out.csv want.csv || die "$sig: $(diff want.csv out.csv | head -5)"
	expect_eq "$sig: messages" "$(cat err.txt)" \
	    "gpumem-read: in.fifo: 199 records (gpumem record stream)"
done

# A second signal ends the run at once: both come while it is stopped,
# the first is taken as above, the second kills it (which of the two
# comes first is the kernel's choice) and -o leaves nothing, not even a
# temporary file.
mkdir second
env $dflt gpumem-read --live --lag 30s -o second/out.csv in.fifo 2> err.txt &
pid=$!
bg_add $pid
exec 3> in.fifo
cat sent.csv >&3
kill -STOP $pid
kill -HUP $pid
kill -TERM $pid
kill -CONT $pid
rc=0; wait $pid || rc=$?
exec 3>&-
case $rc in
129|143) ;;
*) die "second signal: exit status $rc, not killed by it" ;;
esac
expect_eq "second signal: files left" "$(ls -A second)" ""

# A collector: what gpumem send sends over UDP and TCP on loopback,
# captured by tcpdump into a FIFO, is read live; once the capture's copy
# holds every record, SIGTERM.
gpumem-synth -s demo --gmem --host 127.0.0.1 > a.csv
for proto in udp tcp; do
	if [ $proto = udp ]; then
		sink_start sink.txt -u -q
	else
		sink_start sink.txt -q
	fi
	port=$sink_port
	rm -f out.csv
	lo_capture_live cap.pcap "$proto port $port"
	gpumem-read --live --lag 30s -o out.csv live.fifo 2> err.txt &
	pid=$!
	bg_add $pid
	gpumem-send -q $proto://127.0.0.1:$port a.csv || die "$proto: send: exit $?"
	holds() {
		gpumem-read -q cap.pcap 2> /dev/null | cmp -s - a.csv
	}
	wait_for 30 holds || die "$proto: the capture does not hold a.csv"
	[ ! -e out.csv ] || die "$proto: out.csv written before the end"
	kill -TERM $pid
	rc=0; wait $pid || rc=$?
	kill -INT $cap_pid
	wait $cap_pid || :
	kill -TERM $sink_pid
	wait $sink_pid || :
	expect_eq "$proto: exit status" $rc 0
	cmp -s out.csv a.csv || die "$proto: $(diff a.csv out.csv | head -5)"
	grep -q "^gpumem-read: live.fifo: $(nrec a.csv) records " err.txt ||
		die "$proto: $(cat err.txt)"
done
