# The CI jobs of docs/ci.md, run as GitHub Actions and GitLab CI would run
# them: each `run:` step (or the `script:` lines) in a shell, the steps
# marked `if: always()` also after a failure, with the stand-in nvidia-smi
# and a stand-in pytest, then the artifacts they upload must all be there.
# The leakcheck.yaml is the one of the same page.  Only `--after 10s`
# becomes 4s, to keep the case short.  A clean run passes; a run whose
# test leaves a server holding GPU memory fails the job, with every
# artifact still written.
. "$TESTS/lib.sh"
doc=$TESTS/../docs/ci.md
PATH=$TESTS/tools/fakebin:$PWD/fake:$PATH
export PATH FAKE_GPU_COMM=sleep FAKE_GPU_MIB=2048 FAKE_GPU_RELEASE_MS=300
mkdir fake
# pytest: a test that holds GPU memory for a second; with LEAVE_SERVER
# set it also leaves a server running (a fixture that was never stopped).
cat > fake/pytest <<'PYTEST'
#!/bin/sh
sleep 1
if [ -n "${LEAVE_SERVER:-}" ]; then
	sleep 30 > /dev/null 2>&1 &
	echo $! >> "$SERVERS"
fi
exit 0
PYTEST
chmod +x fake/pytest
SERVERS=$PWD/servers
export SERVERS
: > servers
trap 'kill $(cat "$SERVERS") 2> /dev/null || :' EXIT

# The YAML block under a heading of the page.
block() {
	awk -v h="$1" '$0 == h {f = 1; next} f && /^```yaml$/ {g = 1; next}
	    g && /^```$/ {exit} g' "$doc"
}
block '## The rules: leakcheck.yaml' > leakcheck.yaml
[ -s leakcheck.yaml ] || die "no leakcheck.yaml in docs/ci.md"

# GitHub Actions: the steps as a shell script: a failed step fails the
# job, and only `if: always()` steps run after that.
block '### GitHub Actions' > github.yml
[ -s github.yml ] || die "no GitHub Actions job in docs/ci.md"
awk '
function flush() {
	if (cmd != "") {
		printf "if [ $failed = 0 ] || [ %d = 1 ]; then\n", always
		printf "sh -e <<'\''STEP'\'' || failed=1\n%sSTEP\nfi\n", cmd
	}
	cmd = ""; always = 0; inrun = 0; inpath = 0
}
/^      - / { flush(); sub(/^      - /, "        ") }
/^        if: always\(\)$/ { always = 1; next }
/^        run: \|$/ { inrun = 1; next }
/^        run: / { sub(/^        run: /, ""); cmd = $0 "\n"; next }
inrun && /^          / { sub(/^          /, ""); cmd = cmd $0 "\n"; next }
/^          path: \|$/ { inpath = 1; next }
inpath && /^            / { sub(/^            /, ""); paths = paths " " $0; next }
/^          report_paths: / { sub(/^          report_paths: /, ""); junit = $0 }
{ inrun = 0; inpath = 0 }
END { flush(); printf "ARTIFACTS=\"%s\"\nJUNIT=%s\n", paths, junit }
' github.yml | sed 's/--after 10s/--after 4s/' > github.sh
grep -q 'gpumem record' github.sh || die "the GitHub job does not record"

# GitLab CI: the script lines in one shell that stops at the first
# failing line; the artifacts' paths and the JUnit report.
block '### GitLab CI' > gitlab.yml
[ -s gitlab.yml ] || die "no GitLab CI job in docs/ci.md"
sed -n 's/^    - //p' gitlab.yml | sed 's/--after 10s/--after 4s/' > gitlab.sh
gitlab_paths=$(sed -n 's/^    paths: \[\(.*\)\]$/\1/p' gitlab.yml | tr -d ',')
gitlab_junit=$(sed -n 's/^      junit: //p' gitlab.yml)
[ -n "$gitlab_paths" ] && [ -n "$gitlab_junit" ] || die "GitLab: no artifacts"

# artifacts JOB PATH...: every path the job uploads is there, the JUnit
# file is XML with N failures.
artifacts() {
	for p in "$@"; do
		[ -e "$p" ] || die "$job: artifact $p is missing"
		[ -d "$p" ] || [ -s "$p" ] || die "$job: artifact $p is empty"
	done
}

for run in clean leak; do
	for job in github gitlab; do
		mkdir "$job-$run"
		(
		cd "$job-$run"
		cp ../leakcheck.yaml .
		[ $run = leak ] && LEAVE_SERVER=1 && export LEAVE_SERVER
		GITHUB_STEP_SUMMARY=$PWD/step-summary.md
		export GITHUB_STEP_SUMMARY
		status=0
		if [ $job = github ]; then
			failed=0
			. ../github.sh
			status=$failed
			artifacts $ARTIFACTS $JUNIT
			junit=$JUNIT
			cmp -s gpumem.md step-summary.md ||
			    die "github: the job summary is not the verdict"
		else
			sh -e ../gitlab.sh > job.out 2>&1 || status=$?
			artifacts $gitlab_paths $gitlab_junit
			junit=$gitlab_junit
		fi
		fails=$(grep -o '<testsuites[^>]* failures="[0-9]*"' "$junit" |
		    sed 's/.*failures="//; s/"//')
		if command -v xmllint > /dev/null; then
			xmllint --noout "$junit" || die "$job: $junit is not XML"
		fi
		grep -q '<html' gpumem.html || die "$job: no HTML report"
		echo "$job, $run run: job status $status, $fails failed checks"
		)
	done
	kill $(cat servers) 2> /dev/null || :
	: > servers
done
