# dmon without -o: the date(1) lines of a wrapper loop ("date; nvidia-smi
# dmon -c 1") are the clock of the samples after them.  With neither
# such lines nor --interval, one sample can be placed with --start and
# the rest are reported and skipped.
cat > loop.log <<'LOG'
Thu Jan  4 13:54:35 UTC 2024
# gpu     fb   bar1 
# Idx     MB     MB 
    0    239      3 
    1    512      3 
Thu Jan  4 13:55:35 UTC 2024
# gpu     fb   bar1 
# Idx     MB     MB 
    0    240      3 
    1    513      3 
LOG
gpumem-read loop.log
cat > plain.log <<'LOG'
# gpu     fb 
# Idx     MB 
    0    239 
    0    240 
    0    241 
LOG
rc=0; gpumem-read --start 2024-01-04T00:00:00Z plain.log || rc=$?; echo "exit $rc"
rc=0; gpumem-read plain.log || rc=$?; echo "exit $rc"
