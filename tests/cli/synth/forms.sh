# Two loops, the forms of one run: the record stream is what gpumem read
# makes of the nvidia-smi logs, record for record, but for where it places
# the ends (memory_used = 0) of processes whose next poll printed nothing:
# as many ends, each within one poll interval of the stream's, when no
# poll or line is lost.  The GMEM form is the stream without names, with
# the free memory of the GPU's latest device sample on process records.
. "$TESTS/lib.sh"
ends() { grep ',0,,,' "$1" | cut -d, -f1,4; }
for s in $(gpumem-synth --list | grep ' two loops: ' | cut -d' ' -f1); do
	gpumem-synth -s "$s" > stream.csv
	rm -rf nv
	gpumem-synth -s "$s" --nvsmi nv
	gpumem-read -q nv/query-gpu.csv nv/compute-apps.csv > read.csv ||
		die "$s: read: exit $?"
	grep -v ',0,,,' stream.csv > a.csv
	grep -v ',0,,,' read.csv > b.csv
	cmp -s a.csv b.csv || die "$s: records differ: $(diff a.csv b.csv | head -4)"
	# log-stops: the stream has no end after the loop died.
	[ "$s" = lost-polls ] || [ "$s" = log-stops ] && continue
	# The poll interval in ms: sparse polls every second, restart
	# from 20 s on.
	iv=100
	[ "$s" = sparse ] || [ "$s" = restart ] && iv=1000
	ends stream.csv > a.csv
	ends read.csv > b.csv
	expect_eq "$s: ends" "$(wc -l < b.csv)" "$(wc -l < a.csv)"
	paste -d, a.csv b.csv | awk -F, -v s="$s" -v iv=$iv '
	$2 != $4 || (d = substr($3, 1, 13) - substr($1, 1, 13)) < -iv || d > iv {
		print s ": end of " $2 " at " $1 ", read at " $3; bad = 1
	} END { exit bad }' || die "$s: ends"
done
# GMEM: no names, every process record with the free memory and total of
# its GPU's latest device sample; otherwise the stream.
gpumem-synth -s overlap --gmem > g.csv
gpumem-synth -s overlap > s.csv
awk -F, 'NR > 1 && $4 == 0 { free = $6; total = $7; next }
NR > 1 && ($6 != free || $7 != total || $8 != "") { print "line " NR ": " $0; bad = 1 }
END { exit bad }' g.csv || die "gmem: process records"
cut -d, -f1-5 g.csv > a.csv
cut -d, -f1-5 s.csv > b.csv
cmp -s a.csv b.csv || die "gmem: records differ: $(diff a.csv b.csv | head -4)"
