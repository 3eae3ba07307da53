# read -j 2 of one nvidia-smi --query-gpu CSV: decoded in chunks by
# forks of its parser (formats/text/nvsmi.c, fork_fn), which read the
# rows of the GPUs the log showed before the chunks and stop at anything
# else, from where the parser reads on.  Against -j 1 at every chunk size
# (tests/lib.sh's same_in_chunks: stdout, stderr, exit status), logs made
# with awk as nvidia-smi and the loops around it write them: rows of one
# poll a few ms apart, a card swapped in its slot (new UUID, new total),
# a GPU that shows up later, the header printed at every poll (a loop of
# one-shot calls) and then another header, date lines, bad values and a
# bad time, a last line cut short and one without its newline, CRLF,
# pdsh prefixes, a placeholder index, seconds since --start, a log
# without an index column, a log without its header (--fields).  And
# where the forks stop: GPUMEM_CHUNK_TRACE names the line, which awk
# finds on its own (the first row of the new card, the new GPU...).
. "$TESTS/lib.sh"
sizes="1 7 60 333 2048"

# gpus N POLLS [SWAP_POLL [LATE_POLL]]: a --query-gpu log of N GPUs
# (timestamp, index, uuid, pci.bus_id, memory.total, memory.used,
# memory.free), POLLS polls a second apart, each GPU's row 3 ms after
# the one before; from poll SWAP_POLL on, GPU 1 is another card (UUID and
# total); GPU N (one more) is there from poll LATE_POLL on.
gpus() {
	awk -v n="$1" -v polls="$2" -v swap="${3:--1}" -v late="${4:--1}" '
	function ts(p, g,    s, ms) {
		s = 36000 + p
		ms = g * 3
		return sprintf("2026/01/01 %02d:%02d:%02d.%03d", int(s / 3600),
		    int(s % 3600 / 60), s % 60, ms)
	}
	BEGIN {
		print "timestamp, index, uuid, pci.bus_id, memory.total [MiB], " \
		    "memory.used [MiB], memory.free [MiB]"
		for (p = 0; p < polls; p++) {
			m = n + (late >= 0 && p >= late)
			for (g = 0; g < m; g++) {
				card = g
				total = 81559
				if (g == 1 && swap >= 0 && p >= swap) {
					card = 90 + g
					total = 97871
				}
				used = 500 + (p * 37 + g * 101) % 9000
				printf "%s, %d, GPU-%08d-0000-4000-8000-%012d, " \
				    "00000000:%02X:00.0, %d MiB, %d MiB, %d MiB\n",
				    ts(p, g), g, card, card, 16 * (g + 1), total,
				    used, total - used
			}
		}
	}'
}
# trace FILE [OPTIONS]: what the chunks of 2048 bytes did.
trace() {
	_f=$1
	shift
	GPUMEM_CHUNK_SIZE=2048 GPUMEM_CHUNK_TRACE=1 gpumem-read -q -j 2 "$@" \
	    "$_f" 2>&1 > /dev/null | sed -n 's/.*: chunks: //p'
}
# first_line FILE ERE: the number of the first line matching ERE, by awk.
first_line() {
	awk -v re="$2" '$0 ~ re { print NR; exit }' "$1"
}

gpus 8 40 > ok.csv
gpus 1 300 > one.csv
gpus 8 40 25 > swap.csv
gpus 8 40 -1 22 > late.csv
# A loop of one-shot calls: the header before each poll; from poll 30 on,
# another query (utilization added).
gpus 4 40 | awk 'NR == 1 { h = $0; next }
    (NR - 2) % 4 == 0 { print ((NR - 2) / 4 < 30 ? h : h ", utilization.gpu [%]") }
    { print ((NR - 2) / 4 < 30 ? $0 : $0 ", 5 %") }' > headers.csv
# date lines before polls 20 and 30.
gpus 4 40 | awk 'NR > 1 && (NR - 2) % 4 == 0 && ((NR - 2) / 4) % 10 == 0 &&
    NR > 60 { print "Thu Jan  1 10:00:00 UTC 2026" } { print }' > dates.csv
# Bad values, a short row, no such date (all read by forks), then a time
# of no form (which may be seconds since --start: the parser's).
gpus 4 60 | awk 'NR == 50 { sub(/ [0-9]+ MiB, [0-9]+ MiB$/, " [Unknown Error], [GPU is lost]") }
    NR == 70 { sub(/, [0-9]+ MiB$/, "") }
    NR == 90 { sub(/[0-9]+ MiB, [0-9]+ MiB$/, "[N/A], [N/A]") }
    NR == 150 { sub(/^2026\/01\/01/, "2026/13/45") }
    NR == 170 { sub(/^2026\/01\/01/, "01-01-2026") } { print }' > bad.csv
{ gpus 4 40; printf '2026/01/01 10:00:40.000, 0, GPU-00000000-0000-4000-8000-000000000000, 00000000:10:00.0, 81559 MiB, 510 MiB, 810'; } > cut.csv
{ gpus 4 40; printf '2026/01/01 10:00:40.000, 0, GPU-00000000-0000-4000-8000-000000000000, 00000000:10:00.0, 81559 MiB, 510 MiB, 81049 MiB'; } > nonl.csv
gpus 4 40 | awk '{ printf "%s\r\n", $0 }' > crlf.csv
# pdsh's "host: " on some lines: the host stays for the lines after.
gpus 4 40 | awk 'NR > 100 && NR <= 120 { $0 = "node07: " $0 } { print }' > pdsh.csv
gpus 4 40 | awk 'NR == 77 { sub(/, [0-9], GPU/, ", [N/A], GPU") } { print }' > placeholder.csv
gpus 2 40 | awk 'NR > 1 { sub(/^2026\/01\/01 10:00:/, ""); sub(/^[0-9][0-9]\./, int((NR - 2) / 2) ".") } { print }' > elapsed.csv
gpus 4 40 | awk -F', ' -v OFS=', ' '{ print $1, $3, $5, $6, $7 }' > noindex.csv
gpus 4 40 | tail -n +2 > noheader.csv
# Without UUIDs: a card swapped in its slot is its bus id and another
# total; a GPU that shows up later, its index alone.
awk -F', ' -v OFS=', ' '{ print $1, $2, $4, $5, $6, $7 }' swap.csv > swapbus.csv
awk -F', ' -v OFS=', ' '{ print $1, $2, $5, $6, $7 }' late.csv > lateidx.csv
# Two machines' logs joined: GPU 1 under another bus id from poll 25 on
# (no UUID, no total: the bus id is the GPU).
awk -F', ' -v OFS=', ' 'NR >= 202 && (NR - 2) % 8 == 1 { $4 = "00000000:A0:00.0" }
    { print $1, $2, $4, $6, $7 }' ok.csv > joined.csv
# A unified-memory GPU (GB10): no memory figure on any row.
gpus 2 40 | awk -F', ' -v OFS=', ' 'NR > 1 { $5 = $6 = $7 = "[N/A]" } { print }' \
    > unified.csv
# Another run appended, of a query without times and GPUs, its header at
# each poll: whether the rows between two headers are one poll's GPUs
# depends on the rows since the header before, which forks read.
{ gpus 4 40; i=0; while [ $i -lt 3 ]; do
	echo "memory.used [MiB], memory.total [MiB]"
	printf '%s MiB, 81559 MiB\n' 100 200 300 400
	i=$((i + 1))
done; } > appended.csv
# Seconds since --start on a few rows among dates (a logger's bug), the
# first read by a fork, the last after a date line: said once.
gpus 4 60 | awk 'NR == 100 || NR == 200 { sub(/^2026\/01\/01 10:00:[0-9.]*/, "12.5") }
    NR == 150 { print "Thu Jan  1 10:00:40 UTC 2026" } { print }' > elapsedmid.csv

for f in ok.csv one.csv swap.csv late.csv headers.csv dates.csv bad.csv \
    cut.csv nonl.csv crlf.csv pdsh.csv placeholder.csv noindex.csv \
    swapbus.csv lateidx.csv joined.csv unified.csv; do
	same_in_chunks $f --tz UTC
done
same_in_chunks appended.csv --tz UTC --interval 1s
same_in_chunks elapsedmid.csv --tz UTC --start 2026-01-01T10:00:00Z
same_in_chunks bad.csv --tz UTC -v
same_in_chunks bad.csv --tz UTC --strict
same_in_chunks elapsed.csv --start 2026-01-01T10:00:00Z
same_in_chunks noheader.csv --tz UTC --fields \
    timestamp,index,uuid,pci.bus_id,memory.total,memory.used,memory.free

# Where the forks stop: at the line only the parser may read.
echo "== where the forks stop"
for f in ok.csv one.csv headers.csv; do
	echo "$f: $(trace $f --tz UTC)"
done
expect_eq "swap.csv" "$(trace swap.csv --tz UTC | sed 's/.*serially from line //')" \
    "$(first_line swap.csv 'GPU-00000091')"
expect_eq "late.csv" "$(trace late.csv --tz UTC | sed 's/.*serially from line //')" \
    "$(first_line late.csv '^[^,]*, 8, ')"
expect_eq "headers.csv" "$(trace headers.csv --tz UTC | sed 's/.*serially from line //')" \
    "$(first_line headers.csv 'utilization')"
expect_eq "dates.csv" "$(trace dates.csv --tz UTC | sed 's/.*serially from line //')" \
    "$(first_line dates.csv '^Thu')"
expect_eq "bad.csv" "$(trace bad.csv --tz UTC | sed 's/.*serially from line //')" \
    "$(first_line bad.csv '^01-01-2026')"
expect_eq "joined.csv" "$(trace joined.csv --tz UTC | sed 's/.*serially from line //')" \
    "$(first_line joined.csv ':A0:')"
expect_eq "pdsh.csv" "$(trace pdsh.csv --tz UTC | sed 's/.*serially from line //')" \
    "$(first_line pdsh.csv '^node07')"
expect_eq "placeholder.csv" \
    "$(trace placeholder.csv --tz UTC | sed 's/.*serially from line //')" \
    "$(first_line placeholder.csv '\[N/A\], GPU')"
echo "noindex.csv: $(trace noindex.csv --tz UTC)"
echo "elapsed.csv: $(trace elapsed.csv --start 2026-01-01T10:00:00Z)"
# The cut last line: read by a fork, refused as -j 1 refuses it.
GPUMEM_CHUNK_SIZE=2048 gpumem-read -j 2 --tz UTC cut.csv 2>&1 > /dev/null |
    grep 'no line end'
# records + skipped = lines (the header is none of them).
sum=$(GPUMEM_CHUNK_SIZE=60 gpumem-read -j 2 --tz UTC bad.csv 2>&1 > /dev/null |
    sed -n 's/.*: \([0-9]*\) records.*skipped \([0-9]*\):.*/\1 \2/p')
expect_eq "records + skipped" "$(echo $sum | awk '{ print $1 + $2 }')" \
    $(($(wc -l < bad.csv) - 1))
