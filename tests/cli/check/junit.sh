# The JUnit XML validates against the schema CI systems read
# (tests/data/junit.xsd, after Jenkins' junit-10.xsd), and its counts add
# up, for every kind of check: failures, skips (running, vanished), an
# error (an unreadable input), several GPUs and hosts, names that XML
# cannot hold as they are.
. "$TESTS/lib.sh"
command -v xmllint > /dev/null 2>&1 ||
	skip "xmllint is absent (Debian: apt-get install libxml2-utils)"
xsd=$TESTS/data/junit.xsd
n=0
valid() {
	xmllint --noout --schema "$xsd" "$1" 2> err.txt ||
		{ cat err.txt >&2; die "$1 does not validate"; }
	x() { xmllint --xpath "$1" "$2"; }
	expect_eq "$1: root" "$(x 'name(/*)' "$1")" testsuites
	expect_eq "$1: tests" "$(x 'string(/testsuites/@tests)' "$1")" \
	    "$(x 'count(//testcase)' "$1")"
	expect_eq "$1: failures" "$(x 'string(/testsuites/@failures)' "$1")" \
	    "$(x 'count(//failure)' "$1")"
	expect_eq "$1: errors" "$(x 'string(/testsuites/@errors)' "$1")" \
	    "$(x 'count(//error)' "$1")"
	k=$(x 'count(//testsuite)' "$1")
	i=1
	while [ "$i" -le "$k" ]; do
		s="//testsuite[$i]"
		expect_eq "$1: suite $i tests" "$(x "string($s/@tests)" "$1")" \
		    "$(x "count($s/testcase)" "$1")"
		expect_eq "$1: suite $i failures" \
		    "$(x "string($s/@failures)" "$1")" \
		    "$(x "count($s/testcase/failure)" "$1")"
		expect_eq "$1: suite $i skipped" \
		    "$(x "string($s/@skipped)" "$1")" \
		    "$(x "count($s/testcase/skipped)" "$1")"
		i=$((i + 1))
	done
	# Every check has a name of its own (CI systems key on it).
	dup=$(grep -o '<testcase classname="[^"]*" name="[^"]*"' "$1" | sort | uniq -d)
	[ -z "$dup" ] || die "$1: names given twice: $dup"
	n=$((n + 1))
}
cat > rules.yaml <<'YAML'
defaults:
  max_release_delay_s: 5
tasks:
  - match: "python*"
    max_release_delay_s: 30
gpus:
  max_unattributed_mib_at_end: 256
YAML
for s in leak clean slow-release partial-leak concurrent pid-reuse; do
	gpumem-synth -s $s > $s.csv
	gpumem-check -q --config rules.yaml --junit $s.xml $s.csv 2> /dev/null ||
	    [ $? -eq 1 ]
	valid $s.xml
done
# Several hosts and GPUs: one testsuite each, named host:gpu.
gpumem-synth -s multi-gpu --host node1 > a.csv
gpumem-synth -s leak --host node2 > b.csv
gpumem-check -q --config rules.yaml --junit multi.xml a.csv b.csv 2> /dev/null ||
    [ $? -eq 1 ]
valid multi.xml
xmllint --xpath 'count(//testsuite[starts-with(@name, "node1:gpu ")])' multi.xml
echo
xmllint --xpath 'string(//testsuite[@hostname = "node2"]/@name)' multi.xml
echo
# Running tasks and unknowns (no device log): skipped and failed.
gpumem-synth -s leak --nvsmi nv
gpumem-check -q --config rules.yaml --junit apps.xml nv/compute-apps.csv 2> /dev/null ||
    [ $? -eq 1 ]
valid apps.xml
# A baseline with a vanished task (skipped) and an appeared one.
gpumem-tasks -q slow-release.csv | sed 's/,torchrun,/,deepspeed,/' > base.csv
gpumem-check -q --config rules.yaml --baseline base.csv --junit base.xml slow-release.csv 2> /dev/null ||
    [ $? -eq 1 ]
valid base.xml
# An input that cannot be read: an error, in a suite of its own.
gpumem-check -q --junit error.xml leak.csv missing.csv 2> /dev/null ||
    [ $? -eq 2 ]
valid error.xml
# Nothing at all: no suite.
: > empty.csv
gpumem-check -q --junit empty.xml empty.csv 2> /dev/null ||
    [ $? -eq 2 ]
valid empty.xml
# A process name with markup, quotes, a control character and bytes
# that are not UTF-8.
{
	echo "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	i=0
	while [ $i -lt 10 ]; do
		ts=17672256${i}0000000000
		used=300
		[ $i -ge 2 ] && [ $i -le 5 ] && used=1324
		echo "$ts,,0,0,,$((16384 - used)),16384,"
		[ $i -ge 2 ] && [ $i -le 4 ] &&
			printf '%s,,0,77,1024,,,"a&b <c> ""q"" \377\001 ]]>"\n' $ts
		[ $i -eq 5 ] &&
			printf '%s,,0,77,0,,,"a&b <c> ""q"" \377\001 ]]>"\n' $ts
		i=$((i + 1))
	done
} > weird.csv
gpumem-check -q --max-delay 0 --junit weird.xml weird.csv 2> /dev/null ||
    [ $? -eq 1 ]
valid weird.xml
xmllint --xpath 'string(//testcase[contains(@name, "max_leak_mib")]/@name)' weird.xml
echo
echo "$n reports valid"

# The schema bites: what it requires is required.
printf '<testsuites><testsuite name="x" tests="1" failures="0"><testcase name="a"/></testsuite></testsuites>\n' > no-errors.xml
printf '<testsuites><testsuite name="x" tests="1" failures="0" errors="0"><testcase classname="a"/></testsuite></testsuites>\n' > no-name.xml
printf '<testsuites><testsuite name="x" tests="1" failures="0" errors="0" time="soon"/></testsuites>\n' > bad-time.xml
printf '<testsuites><testsuite name="x" tests="1" failures="0" errors="0"><failure/></testsuite></testsuites>\n' > stray.xml
for f in no-errors.xml no-name.xml bad-time.xml stray.xml; do
	xmllint --noout --schema "$xsd" $f 2> /dev/null &&
		die "$f validates"
done
exit 0
