# The main paths under valgrind: no invalid read or write, no use of
# uninitialised memory, no leak (normal build only; skipped without
# valgrind).  Small inputs: valgrind is slow.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "valgrind runs on the normal build"
command -v valgrind > /dev/null 2>&1 || skip "no valgrind"
gpumem-synth -s demo -o s.csv
gzip -c s.csv > s.csv.gz
gpumem-synth -s two-waiting --nvsmi logs
gpumem-synth -s leak --gmem --host 10.0.0.7 -o g.csv
gpumem-pcap -q --tcp -o g.pcap g.csv
gpumem-pcap -q --pcapng --mtu 200 -o g.pcapng g.csv
gpumem-tasks -q -o base.csv s.csv
cat > c.yaml <<'YAML'
tolerance_mib: 64
names:
  - match: "python*"
    name: py
defaults:
  max_leak_mib: 0
YAML
cat > jobs.yaml <<'YAML'
- name: train
  gpu: 0
  start: 2026-01-01T00:00:05Z
  end: 2026-01-01T00:00:40Z
YAML
n=0
while read -r cmd; do
	[ -n "$cmd" ] || continue
	rc=0; valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
	    --error-exitcode=99 $cmd > out.txt 2> err.txt || rc=$?
	[ $rc -ne 99 ] || { cat err.txt >&2; die "valgrind: $cmd"; }
	grep -q '^==[0-9]*==' err.txt && { cat err.txt >&2; die "valgrind said something: $cmd"; }
	n=$((n + 1))
done <<'CMDS'
gpumem-read -q s.csv.gz
gpumem-read -q logs
gpumem-read -q g.pcap g.pcapng
gpumem-read -q --format xml s.csv
gpumem-tasks -q --config c.yaml -t text s.csv
gpumem-tasks -q --tasks jobs.yaml logs/query-gpu.csv
gpumem-usage -q --every 10s s.csv
gpumem-check -q --config c.yaml --baseline base.csv --junit j.xml --json j.json s.csv
gpumem-gantt -q --text base.csv
gpumem-plot -q --script s.csv
gpumem-report -q -o r.html s.csv
gpumem-pcap -q --tcp -o p.pcap g.csv
gpumem-synth -s noise -o n.csv
CMDS
[ $n -eq 13 ] || die "only $n commands ran"
exit 0
