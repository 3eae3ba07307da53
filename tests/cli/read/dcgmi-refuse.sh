# A dcgmi dmon without framebuffer fields holds no memory data; without
# --interval or --start its rows cannot be placed in time.  Both refused.
cat > util.log <<'LOG'
#Entity   GPUTL             MCUTL             POWER
ID                                            W
GPU 0     3                 1                 20.891
LOG
rc=0; gpumem-read --interval 1s --start 2024-05-01T10:00:00Z util.log || rc=$?; echo "exit $rc"
cat > fb.log <<'LOG'
#Entity   FBUSD
ID        
GPU 0     36
GPU 0     37
LOG
rc=0; gpumem-read fb.log || rc=$?; echo "exit $rc"
rc=0; gpumem-read --start 2024-05-01T10:00:00Z fb.log || rc=$?; echo "exit $rc"
