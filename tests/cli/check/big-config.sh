# A configuration of 200,000 task rules loads in linear time and bounded
# memory (lists grow geometrically, not one element per realloc: that was
# quadratic, and under ASan it did not finish in minutes).  The last rule
# is the one that matches, so every rule was read.  The time limit is
# generous (a loaded machine, the sanitizer build); nothing is timed finer.
. "$TESTS/lib.sh"
gpumem-synth -s leak > leak.csv
awk 'BEGIN {
	print "defaults:\n  max_leak_mib: 0\ntasks:"
	for (i = 0; i < 199999; i++)
		printf "  - match: \"job%d-*\"\n    max_leak_mib: 0\n", i
	print "  - match: \"*\"\n    max_leak_mib: 100000"
}' > big.yaml
[ "$(grep -c 'match:' big.yaml)" -eq 200000 ] || die "awk made a wrong config"
rc=0; timeout 240 gpumem-check --config big.yaml leak.csv 2> err || rc=$?
[ $rc -ne 124 ] || die "200,000 rules took more than 240 s"
echo "exit $rc"
cat err
# 9 MB of YAML: its tree and rules, not copies of copies.
if [ "$VARIANT" = normal ]; then
	kib=$("$TOOLS/maxrss" /dev/null gpumem-check --config big.yaml leak.csv)
	echo "peak $kib KiB" >&2
	[ "$kib" -lt 200000 ] || die "peak RSS $kib KiB for a 9 MB config"
fi
# A mapping of 200,000 keys, the last one a repeat of the first: keys are
# checked for repeats by hash (comparing each with all before it took
# minutes).
awk 'BEGIN {
	print "defaults:"
	for (i = 0; i < 200000; i++)
		printf "  k%d: 1\n", i
	print "  k0: 2"
}' > wide.yaml
rc=0; timeout 100 gpumem-check --config wide.yaml leak.csv 2> err || rc=$?
[ $rc -ne 124 ] || die "200,000 keys took more than 100 s"
echo "exit $rc"
cat err
