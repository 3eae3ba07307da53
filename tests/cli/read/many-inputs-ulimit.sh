# 5000 node logs under "ulimit -n 256": more inputs than may be open at
# once, read in passes (runs.h), give what one pass under a large limit
# gives, byte for byte (records, messages, summaries, exit status), with
# -j 1 and -j 2.  The temporary directory ($TMPDIR) is left empty, also
# after SIGTERM.  (many-inputs-passes.sh: damaged inputs, --max-open.)
. "$TESTS/lib.sh"
mkdir tmp
TMPDIR=$PWD/tmp
export TMPDIR
gpumem-synth -s demo --nvsmi a > /dev/null
gpumem-synth -s random --duration 20m --gpus 2 --host h -o s.csv
Q=a/query-gpu.csv
# Killed while it waits for a FIFO (an input left open, read in the last
# merge; its writer has written 3000 records and goes on living): the
# temporary directory goes too.
mkfifo fifo
head -n 3000 s.csv > s3000.csv
(cat s3000.csv; exec sleep 600) > fifo &
bg_add $!
gpumem-read --max-open 2 s.csv a/*.csv fifo > /dev/null 2> kill.err &
pid=$!
bg_add $pid
wait_for 60 sh -c 'test -n "$(ls -A tmp)"' || die "no temporary directory"
kill -TERM $pid
rc=0
wait $pid || rc=$?
expect_eq "killed: exit" $rc 143
[ -z "$(ls -A tmp)" ] || die "left after SIGTERM: $(ls -R tmp)"
# The sanitizers make 5000 inputs take minutes (many-inputs-passes.sh
# reads in passes there).
[ "$VARIANT" = normal ] || skip "5000 inputs: the normal build only"
# A directory of 5000 node logs (2500 nodes, a device and a process log
# each: --host-from-file), a few damaged, under an open-file limit of 256
# (root lowers its own hard limit too): in passes, what a large limit
# reads in one pass.
mkdir d
awk -v n=2500 'FNR == 1 { f++ } f == 1 && FNR <= 31 { q[FNR] = $0; nq = FNR }
    f == 2 && FNR <= 12 { c[FNR] = $0; nc = FNR }
    END {
	for (i = 0; i < n; i++) {
		p = sprintf("d/node-%04d", i)
		for (k = 1; k <= nq; k++) {
			l = q[k]
			if (i % 997 == 3 && k % 5 == 2)
				sub(/ MiB/, " MB?", l)
			print l > (p ".query-gpu.csv")
		}
		close(p ".query-gpu.csv")
		for (k = 1; k <= nc; k++)
			print c[k] > (p ".compute-apps.csv")
		close(p ".compute-apps.csv")
	}
    }' $Q a/compute-apps.csv
head -c -20 d/node-1234.query-gpu.csv > cut && mv cut d/node-1234.query-gpu.csv
printf 'not a log\n' > d/node-4000.txt
[ "$(ls d | wc -l)" -eq 5001 ] || die "$(ls d | wc -l) files in d"
H='--host-from-file=^(node-[0-9]+)'
rc1=0
gpumem-read -j 1 "$H" d > one.out 2> one.err || rc1=$?
for j in 1 2; do
	rc=0
	(ulimit -n 256 && exec gpumem-read -j $j "$H" d) > low.out 2> low.err ||
	    rc=$?
	cmp -s one.out low.out ||
		die "-j $j under ulimit -n 256: stdout differs: $(diff one.out low.out | head -5)"
	cmp -s one.err low.err ||
		die "-j $j under ulimit -n 256: stderr differs: $(diff one.err low.err | head -5)"
	expect_eq "-j $j under ulimit -n 256: exit" $rc $rc1
done
[ -z "$(ls -A tmp)" ] || die "left $(ls tmp)"
echo "== 5001 inputs: exit $rc1, $(wc -l < one.out) lines, $(wc -l < one.err) messages"
grep -v ': 30 records (nvidia-smi --query-gpu CSV, 2 GPUs)$' one.err |
    grep -v ': 11 records (nvidia-smi --query-compute-apps CSV)$'
