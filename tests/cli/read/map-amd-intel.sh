# The shipped maps (--map amd-smi, rocm-smi, xpu-smi) on logs written as
# the tools print them (their documented CSV), made with awk from the
# device samples of a synth recording: each reads back as the recording,
# and gpumem usage answers the same on AMD and Intel as on the stream.
. "$TESTS/lib.sh"
GPUMEM_MAPS="$TESTS/../formats/maps"
export GPUMEM_MAPS
# The recording runs over midnight (xpu-smi's times of day roll over).
gpumem-synth -s demo --start 2026-01-01T23:58:30Z | awk -F, 'NR == 1 || $4 == 0' > dev.csv
awk -F, 'NR > 1 { print $1, $3, $5 }' dev.csv > want.txt
got() {
	awk -F, 'NR > 1 { print $1, $3, $5 }' "$1" > got.txt
	cmp want.txt got.txt || die "$1 differs from the recording"
}
# amd-smi metric --mem-usage --watch 1 --csv: epoch seconds, MB (MiB).
awk -F, 'NR == 1 { print "timestamp,gpu,total_vram,used_vram,free_vram"; next }
{ print substr($1, 1, length($1) - 9) "," $3 "," $7 "," $5 "," $6 }' dev.csv > amd.csv
gpumem-read --map amd-smi amd.csv > amd.rec
got amd.rec
# while :; do rocm-smi --showmeminfo vram --csv; sleep 1; done: a header
# every poll, cards by name, bytes, no time.
awk -F, 'NR == 1 { next }
$1 != last { print "device,VRAM Total Memory (B),VRAM Total Used Memory (B)"; last = $1 }
{ printf "card%d,%.0f,%.0f\n", $3, $7 * 1048576, $5 * 1048576 }' dev.csv > rocm.csv
gpumem-read --map rocm-smi --start 2026-01-01T23:58:30Z --interval 1s rocm.csv > rocm.rec
got rocm.rec
# xpu-smi dump -d 0,1 -m 0,18: times of day, the device id padded, MiB
# with two decimals; --start gives the day of the first.
awk -F, 'NR == 1 { print "Timestamp, DeviceId, GPU Utilization (%), GPU Memory Used (MiB)"; next }
{ s = substr($1, 1, length($1) - 9) % 86400
  printf "%02d:%02d:%02d.000, %4d, 0.00, %.2f\n", s / 3600, s % 3600 / 60, s % 60, $3, $5 }' \
	dev.csv > xpu.csv
gpumem-read --map xpu-smi --start 2026-01-01 xpu.csv > xpu.rec
got xpu.rec
# The usage curve: what the tool prints is what the recording has
# (rocm-smi prints no free memory, xpu-smi dump -m 18 no total either).
usage() {
	awk -F, -v OFS=, -v keep="$2" 'NR > 1 && keep !~ /free/ { $6 = "" }
	NR > 1 && keep !~ /total/ { $7 = "" } 1' dev.csv | gpumem-usage > want.usage
	gpumem-usage "$1" > got.usage
	cmp want.usage got.usage || die "usage of $1"
}
usage amd.rec free,total
usage rocm.rec total
usage xpu.rec none
head -3 amd.csv rocm.csv xpu.csv
