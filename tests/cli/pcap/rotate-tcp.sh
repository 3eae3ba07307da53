# A recording over TCP that two tcpdumps rotate at once, one by size (-C
# 1) and one by time (-G 1, the file names by time): gpumem send to a
# collector on loopback (an MTU of 1500: frames of 500 records over
# several segments, and segments over file boundaries), its lines fed over
# four seconds.  Each set of files, read together in any order, gives
# every record sent, exactly, as mergecap -a of it does.  Each file of the
# rotation by size alone (--no-join) loses the frames cut at its
# boundaries (tcpdump -G starts a file at the first packet after the
# second, mostly the start of a frame sent after a pause: its files may
# cut none).  The loopback of a network namespace of the case's own gets
# the MTU.
. "$TESTS/lib.sh"
in_netns
command -v mergecap > /dev/null || skip "mergecap is not installed"
wide_stream 600 > send.csv
gpumem-read -q send.csv > want.csv
all=$(nrec want.csv)
sink_start sink.txt
mkdir size time
lo_capture time/cap-%s.pcap tcp -G 1
tpid=$cap_pid
lo_capture size/cap.pcap tcp -C 1
mkfifo feed
gpumem-send tcp://127.0.0.1:$sink_port feed &
spid=$!
perl -e 'open(F, ">", "feed") or die; select(F); $| = 1;
	open(X, "<", $ARGV[0]) or die;
	while (<X>) {
		print F $_;
		select(undef, undef, undef, 0.0015) if $. % 100 == 0;
	}' send.csv
wait $spid || die "send: exit $?"
whole() {
	mergecap -a -w "$1.merged" $2 &&
	    [ "$(gpumem-read -q "$1.merged" | wc -l)" -gt "$all" ]
}
wait_for 30 whole size 'size/cap.pcap size/cap.pcap[0-9]*' ||
	die "the capture by size misses records"
lo_capture_stop
wait_for 30 whole time 'time/cap-[0-9]*.pcap' ||
	die "the capture by time misses records"
cap_pid=$tpid
cap_file=time/cap-%s.pcap
lo_capture_stop
for d in size time; do
	rm "$d"/*.err
	# tcpdump -G makes its first file before any packet comes: such an
	# empty capture is read on its own.
	set --
	for f in "$d"/*; do
		if [ "$(wc -c < "$f")" -gt 24 ]; then
			set -- "$@" "$f"
		fi
	done
	[ $# -ge 3 ] || die "$d: tcpdump wrote $# files"
	gpumem-read -q "$d.merged" > "$d.csv"
	cmp -s "$d.csv" want.csv || die "$d: mergecap -a: $(diff "$d.csv" want.csv | head -3)"
	gpumem-read $(printf '%s\n' "$@" | sort -r) > got.csv 2> err.txt ||
		die "$d: read: exit $?"
	cmp -s got.csv want.csv || die "$d: joined: $(diff got.csv want.csv | head -3)"
	grep -q ": one recording of $# files\$" err.txt || die "$d: $(cat err.txt)"
	grep -q ": $all records (pcap capture, Ethernet: [0-9]* packets, [0-9]* GMEM frames from 1 sender)\$" err.txt ||
		die "$d: summary: $(cat err.txt)"
	[ $d = size ] || continue
	gpumem-read -q --no-join "$@" > alone.csv
	[ "$(nrec alone.csv)" -lt "$all" ] || die "$d: --no-join: nothing lost"
done
