# --format forced onto input of another kind: each reader says plainly
# that it is not its format (one line, exit 2); empty input is 0 records.
cat > pmon.log <<'LOG'
# gpu         pid   type     fb    command 
# Idx           #    C/G     MB    name 
    0        100     C     1000    a        
LOG
for f in dmon dcgmi xml table gpustat query-text prom; do
	rc=0; gpumem-read -q --format $f pmon.log > /dev/null || rc=$?; echo "$f: exit $rc"
done
sed 's/pid/idp/' pmon.log > dmon.log
rc=0; gpumem-read -q --format pmon dmon.log > /dev/null || rc=$?; echo "pmon: exit $rc"
: > empty
for f in dmon pmon dcgmi xml table gpustat query-text prom; do
	rc=0; gpumem-read -q --format $f empty || rc=$?; echo "$f, empty: exit $rc"
done
