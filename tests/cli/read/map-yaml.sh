# The same as a YAML map: a logger that writes ';'-separated rows, dates
# as DD-MM-YYYY (a strptime format), GiB, its total with a unit in the
# cell, and process rows that name their GPU by UUID, made with awk from
# the nvidia-smi logs of a synth recording.  The tasks are its truth.
. "$TESTS/lib.sh"
gpumem-synth -s demo --nvsmi nv --truth truth.csv
cat > conv.awk <<'AWK'
# "2026/01/01 00:00:10.000" as "01-01-2026 00:00:10.000"
function day(t) { return substr(t, 9, 2) "-" substr(t, 6, 2) "-" substr(t, 1, 4) substr(t, 11) }
FNR == 1 { next }
FILENAME ~ /query-gpu/ {
	sub(/ MiB/, "", $7)
	printf "%s|%s;%s;%s;;;%.6f;%s\n", $1, day($1), $2, $3, $7 / 1024, $5
	next
}
{
	sub(/ MiB/, "", $6)
	printf "%s|%s;;%s;%s;%s;%.6f;\n", $1, day($1), $2, $4, $5, $6 / 1024
}
AWK
{
	echo "when;card;uuid;pid;name;vram_used;vram_total"
	awk -F', ' -f conv.awk nv/query-gpu.csv nv/compute-apps.csv |
	    sort -s -t'|' -k1,1 | cut -d'|' -f2-
} > vram.csv
cat > logger.yaml <<'YAML'
description: our training job's VRAM logger
delimiter: ";"
timestamp: {column: when, time: "%d-%m-%Y %H:%M:%S"}
gpu: card
uuid: uuid
pid: pid
process_name: name
memory_used: {column: vram_used, unit: GiB}
memory_total: vram_total
YAML
gpumem-tasks -q --map logger.yaml vram.csv > got.csv
sh "$TESTS/tools/taskcmp.sh" truth.csv got.csv || die "tasks through logger.yaml"
gpumem-read --map logger.yaml vram.csv > rec.csv
sed -n '1,3p;/,9001,/{p;q;}' rec.csv
