# Maps that cannot be used, and files a map does not fit: each message
# names the map or the file, the column and what the map expected.
. "$TESTS/lib.sh"
GPUMEM_MAPS="$TESTS/../formats/maps"
export GPUMEM_MAPS
printf 'ts,gpu_id,mem_used_mb\n1767225600,0,12\n1767225601,0,1x\n1767225602,0,\n' > log.csv
run() {
	rc=0; gpumem-read "$@" || rc=$?; echo "exit $rc"
}
run --map timestamp=ts,memory_used=mem_mb log.csv
run --map timestamp=ts,used=mem_used_mb log.csv
run --map timestamp=ts,gpu=gpu_id log.csv
run --map memory_used=mem_used_mb:MiBs log.csv
run --map timestamp=ts:dd-mm,memory_used=mem_used_mb log.csv
run --map gpu=gpu_id:MB,memory_used=mem_used_mb log.csv
run --map nosuchmap log.csv
run --map amd-smi log.csv
run --map timestamp=ts:s,memory_used=mem_used_mb,gpu=gpu_id log.csv
run --map memory_used=mem_used_mb log.csv
printf '12:00:01, 0, 3.00\n' > x.csv
sed -i '1i Timestamp, DeviceId, GPU Memory Used (MiB)' x.csv
run --map xpu-smi x.csv
printf 'timestamp: {column: ts, time: fortnights}\nmemory_used: m\n' > bad.yaml
run --map bad.yaml log.csv
printf 'ts,m\nyesterday,1\n' > t.csv
run --map timestamp=ts,memory_used=m t.csv
