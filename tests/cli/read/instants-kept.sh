# No output time that no input had (issue 32, 5): over every file of the
# corpus (real logs and captures) and every synth scenario in each form
# it writes (the record stream, the nvidia-smi logs, the GMEM stream, and
# that stream as UDP and TCP captures; the one-loop scenarios at whole
# seconds also as tools/smiforms.sh writes -q -x, -q, the table and
# dmon), each time gpumem read writes is
# one the input has, found by tools/instants.py (or by tshark with the
# GMEM dissector in captures) independently of gpumem's parsers.  The one
# repair that makes times: the end of a process found gone after polls
# that printed nothing is placed between polls; those records (process
# records of 0 MiB only) are counted by -v's note, exactly.
. "$TESTS/lib.sh"
# instants FILE... > all.txt: "FILE NS" lines; of FILE: its instants.
instants() { python3 "$TESTS/tools/instants.py" "$@"; }
of() { awk -v f="$1" '$1 == f { print $2 }' all.txt; }

# kept NAME INSTANTS: read.csv (gpumem read -v's output) and read.err.
kept() {
	placed=$(sed -n 's/.*, \([0-9]*\) of them at times no input had.*/\1/p' \
	    read.err)
	awk -F, -v name="$1" -v placed="${placed:-0}" '
	NR == FNR { have[$1]; next }
	FNR == 1 || ($1 in have) { next }
	$4 == 0 || $5 != 0 {
		print name ": " $0 ": a time no input had"; bad = 1; next
	}
	{ n++ }
	END {
		if (n + 0 != placed) {
			print name ": " n + 0 " ends at times no input had, " \
			    placed " said"
			bad = 1
		}
		exit bad
	}' "$2" read.csv || die "$1"
}

ls "$CORPUS"/real/*/* | grep -v '[.]md$' > real.txt
instants $(cat real.txt) > all.txt
while read -r f; do
	gpumem-read -v "$f" > read.csv 2> read.err || :
	of "$f" > in.txt
	kept "${f#$CORPUS/}" in.txt
done < real.txt
# The captures: none holds GMEM, so none may give a record.
for f in "$CORPUS"/pcaps/*; do
	case $f in *.tsv) continue ;; esac
	gpumem-read -q "$f" > read.csv 2> /dev/null || :
	expect_eq "${f#$CORPUS/}: records" "$(nrec read.csv)" 0
done

# Every form of every scenario first, then their instants in one go.
gpumem-synth --list | cut -d' ' -f1 > scenarios.txt
while read -r s; do
	case $s in
	ci-hour|two-loops|random) d=--duration=2m ;;
	*) d= ;;
	esac
	mkdir "$s"
	gpumem-synth -s "$s" $d -o "$s/stream.csv"
	gpumem-synth -s "$s" $d --gmem -o "$s/gmem.csv"
	gpumem-synth -s "$s" $d --nvsmi "$s"
	cat "$s/query-gpu.csv" "$s/compute-apps.csv" > "$s/nv.txt"
	case $(gpumem-synth --list | grep "^$s ") in *' two loops: '*) continue ;; esac
	awk -F, 'NR > 1 && $1 !~ /000000000$/ { exit 1 }' "$s/stream.csv" ||
		continue
	for f in xml qtext table dmon; do
		sh "$TESTS/tools/smiforms.sh" $f < "$s/stream.csv" > "$s/poll.$f"
	done
done < scenarios.txt
instants */stream.csv */gmem.csv */nv.txt */poll.* > all.txt
while read -r s; do
	for f in stream gmem; do
		gpumem-read -v "$s/$f.csv" > read.csv 2> read.err
		of "$s/$f.csv" > in.txt
		kept "$s: $f" in.txt
	done
	gpumem-read -v "$s/query-gpu.csv" "$s/compute-apps.csv" > read.csv \
	    2> read.err
	of "$s/nv.txt" > in.txt
	kept "$s: nvidia-smi" in.txt
	for f in "$s"/poll.*; do
		[ -e "$f" ] || continue
		gpumem-read -v "$f" > read.csv 2> read.err
		of "$f" > in.txt
		kept "$f" in.txt
	done
done < scenarios.txt

# GMEM captures of two scenarios, UDP and TCP: the times tshark finds.
command -v tshark > /dev/null || skip "no tshark"
for s in overlap demo; do
	gpumem-synth -s "$s" --gmem > gmem.csv
	for t in "" --tcp; do
		gpumem-pcap -q $t -o cap.pcap gmem.csv
		sh "$TESTS/tools/tsharkrecs.sh" cap.pcap | cut -d, -f1 |
		    sort -u > in.txt
		[ -s in.txt ] || die "$s$t: tshark found no record"
		gpumem-read -v cap.pcap > read.csv 2> read.err
		kept "$s: capture$t" in.txt
	done
done
