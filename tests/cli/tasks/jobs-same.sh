# tasks, usage, check and report with -j N read their inputs in worker
# threads (read -j) and give what -j 1 gives: the same task tables, usage
# curves, verdicts and reports, byte for byte, the same messages and exit
# status.  Node logs of gpumem synth, nvidia-smi logs with lost polls,
# leaks for check to refuse, a damaged log.  The .stdout golden shows
# -j 1's exit status, line count and messages.
. "$TESTS/lib.sh"
for i in 1 2 3 4 5; do
	gpumem-synth -s random --seed $i --host node$i --duration 10m \
	    --gpus 4 -o node$i.csv
done
for i in 1 2 3; do
	gpumem-synth -s lost-polls --seed $i --nvsmi nv$i > /dev/null
	cp nv$i/query-gpu.csv node$i-query-gpu.csv
	cp nv$i/compute-apps.csv node$i-compute-apps.csv
done
gpumem-synth -s leak --host leaky -o leak.csv
awk 'NR % 300 == 9 { print "1,h,0,7,bad,,,x" } { print }' node5.csv > bad.csv
set -- node1.csv node2.csv node3.csv node4.csv leak.csv bad.csv
logs="node1-query-gpu.csv node1-compute-apps.csv node2-query-gpu.csv
node2-compute-apps.csv node3-query-gpu.csv node3-compute-apps.csv"
same_jobs gpumem-tasks "$@"
same_jobs gpumem-tasks --host-from-file='node[0-9]' $logs
same_jobs gpumem-usage --every 1m "$@"
same_jobs gpumem-check --max-leak 100 "$@"
same_jobs gpumem-check --host-from-file='node[0-9]' $logs node4.csv
same_jobs gpumem-report "$@" > /dev/null
echo "report: the same"
