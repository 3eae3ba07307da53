# Every synth scenario in every form, cross-compared (issue 32, 4b).  The
# one-loop scenarios (device and process records at the same whole
# seconds) are written by tools/smiforms.sh, from docs/log-formats.md
# and no gpumem code, as nvidia-smi -q -x, -q, the plain table and dmon
# print them, and by synth itself as the query-gpu and compute-apps
# logs; gpumem read must give the stream synth writes, field for field,
# projected to the fields each form carries:
#   -q -x, -q, the logs   every field
#   the table             no free: the table prints used / total only
#                         (read gives total - used, the stream the free
#                         nvidia-smi reports, less the reserved part)
#   dmon                  device records only, no free nor total (-s m
#                         prints the used framebuffer alone)
# Scenarios with times between whole seconds (noise's jitter) are in the
# one-second forms at their second: those are left to the logs' forms.
# Every scenario (two loops too) as GMEM (synth --gmem): two senders
# (10.0.0.1 on time, 10.0.0.2 with a clock 37.25 s ahead), each written
# by gpumem pcap over UDP and over TCP, merged by mergecap: read gives the
# two streams, every field.  Round trips: each form's records written as
# a capture (gpumem pcap) and read back, and as the binary record stream
# and read back, are the records again (GMEM carries no names: those are
# projected away on the capture's trip).
. "$TESTS/lib.sh"
forms() { sh "$TESTS/tools/smiforms.sh" "$@"; }
# same NAME A B [CUT]: the records of A and B (sorted, fields CUT) equal.
same() {
	tail -n +2 "$2" | { [ -n "${4-}" ] && cut -d, -f"$4" || cat; } |
	    sort > same.a
	tail -n +2 "$3" | { [ -n "${4-}" ] && cut -d, -f"$4" || cat; } |
	    sort > same.b
	[ -s same.a ] || die "$1: no records"
	cmp -s same.a same.b ||
		die "$1: differ: $(diff same.a same.b | head -4 | tr '\n' ' ')"
}
# trips NAME READ.CSV: the round trips of records read.  In a capture
# (pcap.1) the host is the sender's address, names are dropped, a free
# not known is 0, and a process record has its frame's total.
trips() {
	gpumem-pcap -q -o trip.pcap "$2" 2> /dev/null
	gpumem-read -q trip.pcap > trip.csv
	gmemview "$2" > want.csv
	gmemview trip.csv > got.csv
	same "$1: read, pcap, read" want.csv got.csv 1,3-7
	GPUMEM_STREAM=binary gpumem-read -q "$2" > trip.bin
	gpumem-read -q trip.bin > trip.csv
	cmp -s "$2" trip.csv || die "$1: read, binary, read differs"
}
gmemview() {
	awk -F, -v OFS=, 'NR > 1 { $8 = ""; if ($6 == "") $6 = 0
		if ($4 != 0) $7 = "*" } 1' "$1"
}

for s in $(gpumem-synth --list | grep -v ' two loops: ' | cut -d' ' -f1); do
	[ "$s" = random ] && d=--duration=1m || d=
	gpumem-synth -s "$s" $d > stream.csv
	rm -rf nv
	gpumem-synth -s "$s" $d --nvsmi nv
	gpumem-read -q nv/query-gpu.csv nv/compute-apps.csv > read.csv
	same "$s: logs" stream.csv read.csv
	trips "$s: logs" read.csv
	# Whole seconds only for the snapshot forms.
	awk -F, 'NR > 1 && $1 !~ /000000000$/ { exit 1 }' stream.csv || continue
	for f in xml qtext table dmon; do
		forms $f < stream.csv > poll.$f
		gpumem-read -q poll.$f > read.csv || die "$s: $f: exit $?"
		case $f in
		xml|qtext) same "$s: $f" stream.csv read.csv ;;
		table) same "$s: $f" stream.csv read.csv 1-5,7-8 ;;
		dmon)
			awk -F, 'NR == 1 || $4 == 0' stream.csv > dev.csv
			same "$s: $f" dev.csv read.csv 1-5 ;;
		esac
		trips "$s: $f" read.csv
	done
done

# GMEM: two senders, two clocks, UDP and TCP.
for s in $(gpumem-synth --list | cut -d' ' -f1); do
	case $s in
	ci-hour|two-loops|random) d=--duration=1m ;;
	*) d= ;;
	esac
	gpumem-synth -s "$s" $d --gmem --host 10.0.0.1 > a.csv
	gpumem-synth -s "$s" $d --gmem --host 10.0.0.2 \
	    --start 2026-01-01T00:00:37.25Z > b.csv
	for t in "" --tcp; do
		gpumem-pcap -q $t -o a.pcap a.csv
		gpumem-pcap -q $t -o b.pcap b.csv
		mergecap -w ab.pcap a.pcap b.pcap
		gpumem-read -q ab.pcap > read.csv
		{ cat a.csv; tail -n +2 b.csv; } > ab.csv
		same "$s: GMEM$t" ab.csv read.csv
	done
	trips "$s: GMEM" read.csv
done
