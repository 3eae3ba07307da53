# A recording that tcpdump -C 1 rotates over several files, as one
# capture: gpumem send over UDP to loopback, frames of 500 records (10 KB,
# 7 IP fragments at an MTU of 1500) that straddle the file boundaries.
# Read together (a glob, any order, a directory), the files give every
# record sent, exactly, as mergecap -a of them does and the pieces editcap
# -c cuts; each file read alone (--no-join) loses the datagrams cut in
# two.  A missing middle file loses what it held and is said; captures
# that are not consecutive (overlapping, months apart) are not joined.
# The loopback of a network namespace of the case's own gets the MTU.
. "$TESTS/lib.sh"
in_netns
command -v mergecap > /dev/null || skip "mergecap is not installed"
command -v editcap > /dev/null || skip "editcap is not installed"
# 600 s of 500 processes on GPUs 0 and 1 (a frame a second).
wide_stream 600 > send.csv
gpumem-read -q send.csv > want.csv
all=$(nrec want.csv)
sink_start sink.txt -u
mkdir rot
lo_capture rot/cap.pcap "udp or (ip[6:2] & 0x1fff != 0)" -C 1
gpumem-send udp://127.0.0.1:$sink_port send.csv || die "send: exit $?"
# The last file must hold the last datagram before tcpdump is stopped.
whole() {
	mergecap -F pcap -a -w merged.pcap rot/cap.pcap rot/cap.pcap[0-9]* &&
	    [ "$(gpumem-read -q merged.pcap | wc -l)" -gt "$all" ]
}
wait_for 30 whole || die "the capture misses records"
lo_capture_stop
mv rot/cap.pcap.err .
set -- rot/cap.pcap rot/cap.pcap[0-9]*
n=$#
[ $n -ge 5 ] || die "tcpdump -C 1 wrote $n files"
last=rot/cap.pcap$((n - 1))
[ -f $last ] || die "no $last"

# The truth, twice: what was sent, and mergecap -a of the files.
gpumem-read -q merged.pcap > merged.csv
cmp -s merged.csv want.csv || die "mergecap -a: $(diff merged.csv want.csv | head -3)"
gpumem-read "$@" > got.csv 2> err.txt || die "read: exit $?"
cmp -s got.csv want.csv || die "joined: $(diff got.csv want.csv | head -3)"
grep -q "^gpumem-read: rot/cap.pcap\.\.$last: one recording of $n files\$" err.txt ||
	die "not said: $(cat err.txt)"
expect_eq "summary lines" "$(grep -c 'records (pcap capture' err.txt)" 1
grep -q "^gpumem-read: rot/cap.pcap\.\.$last: $all records (pcap capture, Ethernet: [0-9]* packets, [0-9]* GMEM frames from 1 sender)\$" err.txt ||
	die "summary: $(cat err.txt)"
# Each file alone loses what straddles its boundaries.
gpumem-read -q --no-join "$@" > alone.csv
[ "$(nrec alone.csv)" -lt "$all" ] || die "--no-join: nothing lost"
expect_eq "--no-join: no recording" "$(gpumem-read --no-join "$@" 2>&1 > /dev/null | grep -c 'one recording' || :)" 0
# In any order, and as a directory.
gpumem-read -q $(printf '%s\n' "$@" | sort -r) > shuffled.csv
cmp -s shuffled.csv want.csv || die "shuffled: $(diff shuffled.csv want.csv | head -3)"
gpumem-read -q rot > dir.csv
cmp -s dir.csv want.csv || die "directory: $(diff dir.csv want.csv | head -3)"

# editcap -c cuts the merged capture in pieces of 500 packets.
mkdir ed
editcap -c 500 merged.pcap ed/part.pcap
gpumem-read ed/part_*.pcap > ed.csv 2> ed.err
cmp -s ed.csv want.csv || die "editcap -c: $(diff ed.csv want.csv | head -3)"
grep -q ': one recording of [0-9]* files$' ed.err || die "editcap -c: $(cat ed.err)"

# A missing middle file: only what it held is lost, and it is said.
rm rot/cap.pcap2
set -- rot/cap.pcap rot/cap.pcap[0-9]*
gpumem-read "$@" > hole.csv 2> hole.err || die "hole: exit $?"
grep -q "^gpumem-read: rot/cap.pcap\.\.$last: no file numbered 2 between rot/cap.pcap1 and rot/cap.pcap3: the packets it held are missing\$" hole.err ||
	die "hole not said: $(cat hole.err)"
# Nothing made up, nothing more lost than the files alone lose, and
# exactly what the files give put together by mergecap -a.
sort want.csv > want.sorted
sort hole.csv | comm -13 want.sorted - | grep -q . && die "hole: records made up"
gpumem-read -q --no-join "$@" | sort | comm -23 - want.sorted > /dev/null
gpumem-read -q --no-join "$@" | sort > alone-hole.sorted
sort hole.csv | comm -13 - alone-hole.sorted | grep -q . && die "hole: records lost beyond the hole"
mergecap -a -w hole.pcap "$@"
gpumem-read -q hole.pcap | cmp -s - hole.csv || die "hole: not as mergecap -a"
[ "$(nrec hole.csv)" -lt "$all" ] || die "hole: nothing lost"

# Not one recording: files that overlap in time, or months apart.
gpumem-read merged.pcap rot/cap.pcap1 > /dev/null 2> two.err
expect_eq "overlapping: joined" "$(grep -c 'one recording' two.err || :)" 0
expect_eq "overlapping: summary lines" "$(grep -c ' records (pcap' two.err)" 2
gpumem-synth -s demo --gmem --host 127.0.0.1 | gpumem-pcap -q --link ethernet > old.pcap
gpumem-read rot/cap.pcap old.pcap > /dev/null 2> old.err
expect_eq "months apart: joined" "$(grep -c 'one recording' old.err || :)" 0
