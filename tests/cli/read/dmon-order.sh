# Column groups come in the order -s gave them: fb is found by name
# wherever it is.  -s pucm puts it last; an older driver's -s um has no
# ccpm.  Without -o there is no time: --start and --interval place the
# samples, one row per GPU each, a sample ending where the GPU index
# stops rising.
cat > pucm.log <<'LOG'
# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk     fb   bar1   ccpm 
# Idx      W      C      C      %      %      %      %      %      %    MHz    MHz     MB     MB     MB 
    0    630     53     41    100      8      0      0      0      0   3201   1980  32362     17      0 
    1     77     28     31      0      0      0      0      0      0   3201    345      0      2      0 
    0    631     53     41    100      8      0      0      0      0   3201   1980  32400     17      0 
    1     77     28     31      0      0      0      0      0      0   3201    345     12      2      0 
LOG
gpumem-read --start 2024-01-04T13:00:00Z --interval 2s pucm.log
cat > um.log <<'LOG'
# gpu     sm    mem    enc    dec     fb   bar1 
# Idx      %      %      %      %     MB     MB 
    0      3      1      0      0   1500      5 
    0      4      1      0      0   1600      5 
    0      5      1      0      0   1700      5 
LOG
gpumem-read -q --start 2024-01-04T13:00:00Z --interval 1s um.log
