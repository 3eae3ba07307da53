# Lines a dmon log should not hold are named and skipped; the rest is
# read.  --strict makes the first one fatal.
cat > bad.log <<'LOG'
    0    100 
# gpu     fb   bar1 
# Idx     MB     MB 
    0    239      3 
    0    2x9      3 
    x    239      3 
    0    239 
    0    239      3     7 
# a comment a wrapper wrote
Failed to initialize NVML: Driver/library version mismatch
    0    241      3 
LOG
rc=0; gpumem-read --start 2024-01-04T00:00:00Z --interval 1s bad.log || rc=$?; echo "exit $rc"
rc=0; gpumem-read --strict --start 2024-01-04T00:00:00Z --interval 1s bad.log || rc=$?; echo "exit $rc"
