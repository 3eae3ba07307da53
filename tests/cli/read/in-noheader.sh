# Header-less query-gpu logs (nvidia-smi --query-gpu=LIST
# --format=csv,noheader[,nounits] -l 1 >> gpu.log), read without --fields:
# the columns are told from their values, in several common orders, and
# the records are those of the same log with its header.  Logs whose values
# do not tell (no idle GPU tells used from free) are refused with the
# --fields to give.
. "$TESTS/lib.sh"
gpumem-synth -s demo -n nv
gpumem-read -q nv/query-gpu.csv > want
cut -d, -f1-5,7 want > want-used
cut -d, -f1-6 want > want-nototal
# nvidia-smi replaying the recording (tests/tools/smireplay.sh).
printf '#!/bin/sh\nexec sh "%s/tools/smireplay.sh" "$@"\n' "$TESTS" > nvidia-smi
chmod +x nvidia-smi
TABLE=nv/query-gpu.csv
export TABLE
n=0
for q in timestamp,name,pci.bus_id,driver_version,pstate,temperature.gpu,utilization.gpu,memory.total,memory.free,memory.used \
    timestamp,index,memory.used,memory.total \
    timestamp,uuid,memory.used,memory.free \
    timestamp,index,memory.total,memory.reserved,memory.used,memory.free; do
	for f in csv,noheader csv,noheader,nounits; do
		n=$((n + 1))
		./nvidia-smi --query-gpu=$q --format=$f > gpu$n.log
		gpumem-read -q gpu$n.log > got 2> err || die "$q $f: exit $?"
		[ -s err ] && die "$q $f: $(cat err)"
		case $q in
		*total*free*|*free*total*)
			cmp -s got want || die "$q $f: records differ" ;;
		# No total: the parser's total is used + free (no reserved).
		*free*) cut -d, -f1-6 got | cmp -s - want-nototal ||
			die "$q $f: records differ" ;;
		*) cut -d, -f1-5,7 got | cmp -s - want-used ||
			die "$q $f: records differ" ;;
		esac
	done
done
# What is said: the --fields read, to pin them.
gpumem-read gpu1.log 2>&1 > /dev/null | head -n 1
gpumem-read gpu5.log 2>&1 > /dev/null | head -n 1
# A log begun during a job: no idle GPU tells used from free.
awk -F', ' 'NR == 1 || $7 + 0 >= 2000' nv/query-gpu.csv > busy.csv
TABLE=busy.csv ./nvidia-smi --query-gpu=timestamp,index,memory.used,memory.free \
    --format=csv,noheader > busy1.log
TABLE=busy.csv ./nvidia-smi --query-gpu=index,memory.used,memory.total \
    --format=csv,noheader > busy2.log
for f in busy1.log busy2.log; do
	rc=0; gpumem-read $f > out 2>&1 || rc=$?
	echo "exit $rc"
	cat out
done
# The hint, given, reads it.
rc=0; gpumem-read -q --fields timestamp,index,memory.used,memory.free busy1.log > got || rc=$?
expect_eq "busy1.log with --fields" $rc 0
expect_eq "busy1.log records" $(nrec got) $(($(wc -l < busy1.log)))
