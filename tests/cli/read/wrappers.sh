# Wrapper scripts around `nvidia-smi --query-gpu ... --format=csv,noheader`
# as people write them: date(1) lines in en_US's 12-hour form and in other
# zones (applied), epoch seconds or milliseconds glued in front of each
# row or as the timestamp column, pdsh's "host: " prefixes, time-only
# lines between blocks, separator lines.  The polls are the fixture's
# first three; the records must be those of the fixture itself.
. "$TESTS/lib.sh"
gpumem-synth -s demo -n nv
head -n 7 nv/query-gpu.csv > q.csv
gpumem-read -q q.csv > want
fields=index,uuid,pci.bus_id,memory.total,memory.reserved,memory.used,memory.free
t0=$(date -d '2026-01-01T00:00:00Z' +%s)
# poll N: the noheader rows of poll N (0-2), without their timestamps.
poll() {
	sed -n "$(($1 * 2 + 2)),$(($1 * 2 + 3))p" q.csv | cut -d, -f2-
}
# dated FILE ZONE FORMAT: each poll after a date line of that zone,
# blocks apart by separators and blank lines.
dated() {
	for n in 0 1 2; do
		TZ=$2 date -d "@$((t0 + n))" "$3"
		poll $n
		printf -- '-----\n\n=====\n'
	done > "$1"
}
# en_US's `date`: "%a %b %e %r %Z %Y", %r being "%I:%M:%S %p" there.
dated us.log America/New_York '+%a %b %e %I:%M:%S %p %Z %Y'
head -n 1 us.log | grep -q '^Wed Dec 31 07:00:00 PM EST 2025$' || die "us.log: $(head -n 1 us.log)"
for z in Europe/Berlin Asia/Tokyo Australia/Sydney America/Los_Angeles; do
	dated zone.log $z '+%a %b %e %T %Z %Y'
	gpumem-read -q --format query-gpu --fields $fields zone.log > got || die "$z: exit $?"
	cmp -s got want || die "$z ($(head -n 1 zone.log)): records differ"
done
dated num.log Asia/Kolkata '+%a %b %e %T %z %Y'
dated ist.log Asia/Kolkata '+%a %b %e %T %Z %Y'
for f in us.log num.log; do
	gpumem-read --format query-gpu --fields $fields $f > got
	cmp -s got want || die "$f: records differ"
done
# IST is India, Israel or Ireland: refused until --tz says which.
rc=0; gpumem-read --format query-gpu --fields $fields ist.log > /dev/null || rc=$?
expect_eq "ist.log exit" $rc 2
gpumem-read -q --tz Asia/Kolkata --format query-gpu --fields $fields ist.log > got
cmp -s got want || die "ist.log with --tz: records differ"

# echo "$(date +%s),$(nvidia-smi ... --format=csv,noheader)": found
# without options but --fields; and milliseconds as the timestamp column.
for n in 0 1 2; do poll $n | sed "s/^/$((t0 + n)),/"; done > glued.csv
gpumem-read --fields $fields glued.csv > got
cmp -s got want || die "glued.csv: records differ"
for n in 0 1 2; do poll $n | sed "s/^/$((t0 + n))000,/"; done > ms.csv
gpumem-read -q --format query-gpu --fields timestamp,$fields ms.csv > got
cmp -s got want || die "ms.csv: records differ"

# pdsh -w node07 nvidia-smi ...: the host is the prefix's.
sed 's/^/node07: /' q.csv > pdsh.csv
gpumem-read pdsh.csv > got
sed 's/^\([0-9]*\),,/\1,node07,/' want > want-host
cmp -s got want-host || die "pdsh.csv: records differ"

# date once, then date +%T before each later block.
{ TZ=UTC date -d "@$t0"; poll 0; echo 00:00:01; poll 1; echo 00:00:02; poll 2; } > hms.log
gpumem-read --format query-gpu --fields $fields hms.log > got
cmp -s got want || die "hms.log: records differ"
