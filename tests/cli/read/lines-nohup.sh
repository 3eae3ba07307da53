# `nohup nvidia-smi --query-gpu=... --format=csv -l 1 >> gpu.log 2>&1 &`
# writes "nohup: ignoring input" at the top of the log and again at each
# restart; nvidia-smi's own "Warning: ..." lines land there too.  Such a
# "word: text" line is not a pdsh/clush host prefix (what follows it is
# no line of the log): the records keep no host, the header is found, and
# the lines are skipped, counted, as is the script's banner before the
# header (not "no header line").  A real prefix ("node07: " before each
# header and row) still names the host.
. "$TESTS/lib.sh"
# The rows of nvidia-smi -l 1 from 2026-01-01T00:00:00Z (TZ=UTC), 2 GPUs,
# and the records they are (the truth), GPU g at second s using
# 1000 * s + 100 * g MiB.
awk 'BEGIN {
	print "nohup: ignoring input" > "gpu.log"
	print "GPU memory monitor started" > "gpu.log"
	print "Warning: persistence mode is disabled on device 00000000:17:00.0. See the Known Issues section of the nvidia-smi(1) man page for more information. Run with [--help | -h] switches to list all options." > "gpu.log"
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name" > "want"
	for (s = 0; s < 6; s++) {
		if (s == 0 || s == 3) {
			if (s == 3)
				print "nohup: ignoring input" > "gpu.log"
			print "timestamp, index, memory.used [MiB], memory.total [MiB]" > "gpu.log"
		}
		for (g = 0; g < 2; g++) {
			printf "2026/01/01 00:00:%02d.%03d, %d, %d MiB, 24576 MiB\n", s, 11 * g, g, 1000 * s + 100 * g > "gpu.log"
			printf "%d%09d,,%d,0,%d,,24576,\n", 1767225600 + s, 11000000 * g, g, 1000 * s + 100 * g > "want"
		}
	}
}'
gpumem-read gpu.log > got
cmp -s got want || die "gpu.log: records differ: $(diff want got | head -n 5)"
# The same log through pdsh -w node07: every line prefixed, the host kept.
sed 's/^/node07: /' gpu.log > pdsh.log
gpumem-read -q pdsh.log > got
sed 's/^\([0-9]*\),,/\1,node07,/' want > want-host
cmp -s got want-host || die "pdsh.log: records differ: $(diff want-host got | head -n 5)"
# A headerless log read with --fields, nohup's line first.
grep -v -e '^timestamp' -e '^Warning' -e '^GPU' gpu.log > noheader.log
gpumem-read --fields timestamp,index,memory.used,memory.total noheader.log > got
cmp -s got want || die "noheader.log: records differ: $(diff want got | head -n 5)"
