# pmon without -o: a sample is the run of rows up to a GPU index below
# the previous one or a (GPU, pid) already listed; --start and --interval
# place the samples.  Sample 3 holds idle rows only: both processes end.
cat > pmon.log <<'LOG'
# gpu         pid   type     fb    command 
# Idx           #    C/G     MB    name 
    0        100     C     1000    a        
    0        200     C     2000    b        
    1        300     C     3000    c        
    0        100     C     1100    a        
    1        300     C     3000    c        
    0          -     -        -    -        
    1          -     -        -    -        
LOG
gpumem-read --start 2025-03-01T12:00:00Z --interval 5s pmon.log
