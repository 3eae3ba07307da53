# A dmon without the fb column holds no memory data: one line each, exit
# 2.  -s u's "mem" is the memory controller's load, not memory used.
cat > u.log <<'LOG'
# gpu     sm    mem    enc    dec    jpg    ofa 
# Idx      %      %      %      %      %      % 
    0     46     26      0      1      0      0 
LOG
cat > default.log <<'LOG'
# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk 
# Idx      W      C      C      %      %      %      %      %      %    MHz    MHz 
    0     77     28     31      0      0      0      0      0      0   3201    345 
LOG
rc=0; gpumem-read u.log default.log || rc=$?; echo "exit $rc"
