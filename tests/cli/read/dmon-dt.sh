# nvidia-smi dmon -s mutc -o DT: the memory group first (in -s order),
# fb as used memory (bar1 and ccpm are other memories), a blank line in
# the stream, the header pair again mid-stream, '-' for a missing fb.
# Date and time are local (TZ=UTC here; --tz moves them).
cat > dmon.log <<'LOG'
#Date       Time        gpu     fb   bar1   ccpm     sm    mem    enc    dec    jpg    ofa  rxpci  txpci   mclk   pclk 
#YYYYMMDD   HH:MM:SS    Idx     MB     MB     MB      %      %      %      %      %      %   MB/s   MB/s    MHz    MHz 
 20240104   13:54:35      0    239      3      0      6      1      0      0      0      0      5     10   6250   1695 
 20240104   13:54:35      1   1024      5      0     60     11      0      0      0      0      5     10   6250   1695 

 20240104   13:54:36      0     74     10      0      0      0      0      0      0      0    217    677   6250   1695 
 20240104   13:54:36      1      -     10      0      0      0      0      0      0      0    217    677   6250   1695 
#Date       Time        gpu     fb   bar1   ccpm     sm    mem    enc    dec    jpg    ofa  rxpci  txpci   mclk   pclk 
#YYYYMMDD   HH:MM:SS    Idx     MB     MB     MB      %      %      %      %      %      %   MB/s   MB/s    MHz    MHz 
 20240104   13:54:37      0     80      3      0      6      1      0      0      0      0      5     10   6250   1695 
 20240104   13:54:37      1   2048      5      0     60     11      0      0      0      0      5     10   6250   1695 
LOG
gpumem-read dmon.log
gpumem-read -q --tz Europe/Berlin dmon.log | sed -n 2p
