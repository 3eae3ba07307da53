# Epoch seconds glued in front of noheader rows, as
#   echo "$(date +%s),$(nvidia-smi --query-gpu=utilization.gpu,
#       utilization.memory,memory.used,memory.total --format=csv,noheader,nounits)"
# (one GPU) or `nvidia-smi ... | sed "s/^/$(date +%s),/"` (several)
# write them, every 5 s.  --fields names the query, so it says which log
# this is: read without --format, though no value carries a unit; each
# row's time is its epoch, and without a GPU column the one GPU is GPU 0
# on every row (not a GPU per row).
. "$TESTS/lib.sh"
awk 'BEGIN {
	for (p = 0; p < 6; p++) {
		t = 1767225600 + 5 * p
		printf "%d,%d, %d, %d, 24576\n", t, 10 * p, 3 * p, 100 * p + 7 > "one.log"
		printf "%d000000000,,0,0,%d,,24576,\n", t, 100 * p + 7 > "want-one"
		for (g = 0; g < 2; g++) {
			printf "%d,%d, %d, %d, %d, 24576\n", t, g, 10 * p, 3 * p, 100 * p + g > "two.log"
			printf "%d000000000,,%d,0,%d,,24576,\n", t, g, 100 * p + g > "want-two"
		}
	}
}'
gpumem-read --fields utilization.gpu,utilization.memory,memory.used,memory.total one.log | tail -n +2 > got
cmp -s got want-one || die "one.log: records differ: $(diff want-one got | head -n 5)"
gpumem-read --fields index,utilization.gpu,utilization.memory,memory.used,memory.total two.log | tail -n +2 > got
cmp -s got want-two || die "two.log: records differ: $(diff want-two got | head -n 5)"
