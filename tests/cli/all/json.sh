# Every JSON output (tasks -t json, check --json, read -t json, usage -t
# json and --every) carries the version first and its times in UTC with Z
# whatever the zone, and passes its schema in docs/schema/
# (tests/tools/schemacheck.py: python3's jsonschema is not always there).
# The run is in Berlin's zone: a local time would show as +01:00.
. "$TESTS/lib.sh"
command -v python3 > /dev/null || skip "python3 is absent"
schemas="$TESTS/../docs/schema"
sc() {
	python3 "$TESTS/tools/schemacheck.py" "$@" || die "schema: $*"
}
export TZ=Europe/Berlin
gpumem-synth -s leak -t truth.csv > leak.csv
gpumem-tasks -q -t json leak.csv > t.json
sc "$schemas/tasks.json" t.json
gpumem-tasks -q -t json < /dev/null > empty.json
sc "$schemas/tasks.json" empty.json
rc=0; gpumem-check -q --json c.json --baseline truth.csv leak.csv 2> /dev/null ||
	rc=$?
expect_eq "check exit" $rc 1
sc "$schemas/check.json" c.json
gpumem-check -q --json c2.json truth.csv 2> /dev/null || :
sc "$schemas/check.json" c2.json
gpumem-read -q -t json leak.csv > r.json
sc "$schemas/read.json" r.json --ndjson
gpumem-usage -q -t json leak.csv > u.json
sc "$schemas/usage.json" u.json --ndjson
gpumem-usage -q -t json --every 30s leak.csv > ue.json
sc "$schemas/usage-every.json" ue.json --ndjson
# The version is gpumem's, the first key of each.
v=$(gpumem-read --version | sed 's/.* //')
for f in t.json empty.json c.json r.json u.json ue.json; do
	expect_eq "$f: first key" "$(tr -d '\n' < $f | sed 's/^[{ ]*//' |
	    cut -c1-$((13 + ${#v})))" "\"version\": \"$v\""
done
# Times: the synth scenario starts at 2026-01-01T00:00:00Z; every *_time
# is UTC with Z.  The goldens show the first row of each as it is.
! grep -h '_time": "[^"]*[^Z]"' t.json c.json r.json u.json ue.json ||
	die "a time that is not UTC"
sed -n 4p t.json
sed -n 2p r.json
sed -n 2p u.json
sed -n 2p ue.json
# What a record lacks is null, not 0: the first process record of the
# stream has no free or total (empty in leak.csv, read here with awk).
awk -F, 'NR > 1 && $4 != 0 { printf "%s %s\n", $6 == "" ? "null" : $6,
    $7 == "" ? "null" : $7; exit }' leak.csv > want.txt
grep -m 1 '"process_id": [1-9]' r.json |
	sed 's/.*"memory_free_mib": \([^,]*\), "memory_total_mib": \([^,]*\),.*/\1 \2/' > got.txt
expect_eq "a process record's free and total" "$(cat got.txt)" "$(cat want.txt)"
expect_eq "want" "$(cat want.txt)" "null null"
