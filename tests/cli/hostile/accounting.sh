# Nothing lost: for each reader, on inputs with known damage, the summary
# line's records and skipped add up to what the input held (records for
# line formats, packets for captures; a document's bad value is counted
# and its GPU's record kept with the other values), and the skipped are
# exactly the damaged ones.
. "$TESTS/lib.sh"
# damage FILE N TEXT: FILE with line N replaced by TEXT.
damage() {
	awk -v n="$2" -v t="$3" 'NR == n { print t; next } { print }' "$1"
}
# adds SUMMARY TOTAL SKIPPED: the summary line says TOTAL - SKIPPED
# records and SKIPPED skipped.
adds() {
	r=$(echo "$1" | sed -n 's/^[^:]*: [^:]*: \([0-9]*\) records.*/\1/p')
	s=$(echo "$1" | sed -n 's/.*; skipped \([0-9]*\):.*/\1/p')
	[ -n "$r" ] || die "no record count in: $1"
	expect_eq "records + skipped in: $1" $((r + ${s:-0})) "$2"
	expect_eq "skipped in: $1" "${s:-0}" "$3"
}
# last: the last line of err.txt (the summary).
last() {
	tail -n 1 err.txt
}

# The record stream: a bad number, too few fields, garbage, a NUL, a line
# over 1 MiB, and a record moved far back (beyond a window of 8).
gpumem-synth -s demo -o s.csv
total=$(nrec s.csv)
damage s.csv 10 '12x4,,0,0,1,1,1,' | damage - 20 '1,2,3' |
	damage - 30 'garbage' | damage - 50 'x' > d.csv
{ head -n 39 d.csv; printf '1767225640000000000,,0,0,1\000,1,1,\n'; tail -n +41 d.csv; } > d2.csv
{ head -n 59 d2.csv; head -c 2000000 /dev/zero | tr '\0' 7; echo; tail -n +61 d2.csv; } > d3.csv
# Line 70 moved to after line 400: too late for a window of 8.
{ sed -n 1,69p d3.csv; sed -n 71,400p d3.csv; sed -n 70p d3.csv; tail -n +401 d3.csv; } > d4.csv
gpumem-read --window 8 -o /dev/null d4.csv 2> err.txt
cat err.txt
adds "$(last)" "$total" 7

# nvidia-smi logs: a bad value, garbage, a bad time, too few fields.
gpumem-synth -s demo --nvsmi nv
total=$(nrec nv/query-gpu.csv)
damage nv/query-gpu.csv 10 '2026/01/01 00:00:04.000, 1, GPU-5a1e0001-0000-4000-8000-000000000001, 00000000:27:00.0, 24576 MiB, 300 MiB, 12x MiB, 24276 MiB' |
	damage - 20 'garbage' |
	damage - 30 '2026/13/01 00:00:14.000, 1, GPU-5a1e0001-0000-4000-8000-000000000001, 00000000:27:00.0, 24576 MiB, 300 MiB, 0 MiB, 24276 MiB' |
	damage - 40 '2026/01/01 00:00:19.000, 1' > q.csv
gpumem-read -o /dev/null q.csv 2> err.txt
cat err.txt
adds "$(last)" "$total" 4
total=$(nrec nv/compute-apps.csv)
damage nv/compute-apps.csv 5 '2026/01/01 00:00:14.000, GPU-5a1e0000-0000-4000-8000-000000000000, 00000000:17:00.0, 9001x, python3 train.py, 10240 MiB' |
	damage - 15 ',,,,,' > a.csv
gpumem-read -o /dev/null nv/query-gpu.csv a.csv 2> err.txt
cat err.txt
adds "$(last)" "$total" 2

# dmon: a row of garbage, a row with a bad fb (its GPU's value skipped).
cat > dmon.log <<'LOG'
# gpu     fb   bar1   ccpm     sm    mem    enc    dec
# Idx     MB     MB     MB      %      %      %      %
    0    239      3      0      6      1      0      0
    1   1024      5      0     60     11      0      0
    0     74     10      0      0      0      0      0
    1    1x0     10      0      0      0      0      0
  garbage here
    0     80      3      0      6      1      0      0
    1   2048      5      0     60     11      0      0
LOG
gpumem-read --start 2026-01-01T00:00:00Z --interval 1s -o /dev/null dmon.log 2> err.txt
cat err.txt
adds "$(last)" 7 2

# -q -x XML: two documents of two GPUs; one value damaged.  A document's
# bad value costs only itself: its GPU's record keeps the other values
# (free, total), and the value is counted.
doc() {
	cat <<XML
<?xml version="1.0" ?>
<nvidia_smi_log>
	<timestamp>Thu Jan  1 00:00:0$1 2026</timestamp>
	<gpu id="00000000:01:00.0">
		<minor_number>0</minor_number>
		<fb_memory_usage><total>16384 MiB</total><used>$2 MiB</used><free>1000 MiB</free></fb_memory_usage>
	</gpu>
	<gpu id="00000000:02:00.0">
		<minor_number>1</minor_number>
		<fb_memory_usage><total>16384 MiB</total><used>200 MiB</used><free>16184 MiB</free></fb_memory_usage>
	</gpu>
</nvidia_smi_log>
XML
}
{ doc 0 100; doc 1 1x0; } > x.xml
gpumem-read -o /dev/null x.xml 2> err.txt
cat err.txt
adds "$(last)" 5 1

# Prometheus: a sample line of garbage, a value that is not a number.
cat > p.prom <<'PROM'
# TYPE DCGM_FI_DEV_FB_USED gauge
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-a",Hostname="n1"} 100 1767225600000
DCGM_FI_DEV_FB_USED{gpu="1",UUID="GPU-b",Hostname="n1"} 1x0 1767225600000
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-a",Hostname="n1"} 300 1767225601000
garbage{
DCGM_FI_DEV_FB_USED{gpu="1",UUID="GPU-b",Hostname="n1"} 400 1767225601000
PROM
gpumem-read -o /dev/null p.prom 2> err.txt
cat err.txt
adds "$(last)" 5 2

# A capture: packets = GMEM frames + skipped.
gpumem-synth -s concurrent --gmem --host 10.0.0.7 -o g.csv
gpumem-pcap -q -o g.pcap g.csv
n=$("$TOOLS/pcapedit" g.pcap | wc -l)
"$TOOLS/pcapedit" g.pcap g2.pcap poke 3 42 0 poke 7 43 7 cut 9 30
gpumem-read -o /dev/null g2.pcap 2> err.txt
cat err.txt
f=$(sed -n 's/.* \([0-9]*\) GMEM frames.*/\1/p' err.txt)
s=$(sed -n 's/.*; skipped \([0-9]*\):.*/\1/p' err.txt)
expect_eq "frames + skipped" $((f + s)) "$n"
expect_eq "skipped" "$s" 3
exit 0
