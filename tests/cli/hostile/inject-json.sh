# The machine outputs stay valid whatever a host or a process name holds
# (quotes, backslashes, line breaks, control characters, DEL, bytes that
# are not UTF-8): tasks -t json and check --json parse (python3's json),
# check --junit is well-formed XML, tasks -t csv parses as CSV with one
# row a task and reads back into check with the same verdict.  The record
# stream is made with awk from a known run (demo: 4 tasks, one leaked).
. "$TESTS/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"

payload() {
	case $1 in
	quotes) printf '"q" '"'s'"' \\ \\" \\\\' ;;
	ctl) printf 'a\nb\rc\td\033e\001f\177g' ;;
	utf8) printf 'bad\377\376\300 \355\240\200 \xef\xbf\xbe end' ;;
	esac
}
keys="quotes ctl utf8"

csvq() {
	printf '"'
	sed 's/"/""/g' p.txt | awk 'NR > 1 { printf "\n" } { printf "%s", $0 }'
	printf '"'
}

# json FILE WHAT: python3 reads it (strictly: UTF-8, no raw control).
json() {
	python3 -c 'import json, sys
json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1" \
	    2>/dev/null || die "$2: $1 is not valid JSON"
}

gpumem-synth -s demo > demo.csv
for k in $keys; do
	payload $k > p.txt
	f=$(csvq)
	f=$f awk -F, -v OFS=, 'NR > 1 { $2 = ENVIRON["f"]
	    if ($8 != "") $8 = ENVIRON["f"] } { print }' demo.csv > in.csv
	gpumem-tasks -q -t json in.csv > tasks.json || die "$k: json: exit $?"
	json tasks.json "$k: tasks -t json"
	expect_eq "$k: json tasks" "$(python3 -c 'import json
print(len(json.load(open("tasks.json", encoding="utf-8"))["tasks"]))')" 4
	rc=0
	gpumem-check -q --json check.json --junit junit.xml in.csv 2>/dev/null ||
	    rc=$?
	expect_eq "$k: check: exit" $rc 1
	json check.json "$k: check --json"
	xmllint --noout junit.xml 2>/dev/null || die "$k: junit.xml is not XML"
	gpumem-tasks -q in.csv > tasks.csv || die "$k: csv: exit $?"
	expect_eq "$k: csv rows" "$(python3 -c 'import csv
print(len(list(csv.reader(open("tasks.csv", newline="", encoding="latin-1"))))-1)')" 4
	rc=0
	gpumem-check -q tasks.csv 2> back.txt || rc=$?
	expect_eq "$k: check of the table: exit" $rc 1
	gpumem-check -q in.csv 2> direct.txt || :
	# The same tasks (a table has no device samples: the memory left
	# at the end is not judged from it, so the counts of checks differ).
	expect_eq "$k: verdict of the table" "$(tail -n 1 back.txt | cut -d';' -f2)" \
	    "$(tail -n 1 direct.txt | cut -d';' -f2)"
done
exit 0
