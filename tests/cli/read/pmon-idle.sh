# nvidia-smi pmon -s um -o DT on two GPUs: per-process fb; names cut to
# 15 characters and padded, with spaces inside ("NVIDIA Overlay."); type
# C+G; fb '-' (memory unknown, WDDM); an idle GPU's row of '-'.  Every
# sample lists every process, so one missing from a sample (even one of
# idle rows only) ended there: a memory_used = 0 record at that sample.
cat > pmon.log <<'LOG'
#Date       Time        gpu         pid   type     sm    mem    enc    dec    jpg    ofa     fb   ccpm    command 
#YYYYMMDD   HH:MM:SS    Idx           #    C/G      %      %      %      %      %      %     MB     MB    name 
 20250301   12:00:00      0       4242     C     99      7      -      -      -      -   2566      0    python3 train.p 
 20250301   12:00:00      0      17648   C+G      -      -      -      -      -      -      -      -    NVIDIA Overlay. 
 20250301   12:00:00      1          -     -      -      -      -      -      -      -      -      -    -               
 20250301   12:00:01      0       4242     C     99      7      -      -      -      -   2600      0    python3 train.p 
 20250301   12:00:01      1       5151     C     10      1      -      -      -      -    512      0    worker          
 20250301   12:00:02      0          -     -      -      -      -      -      -      -      -      -    -               
 20250301   12:00:02      1       5151     C     10      1      -      -      -      -    512      0    worker          
 20250301   12:00:03      0          -     -      -      -      -      -      -      -      -      -    -               
 20250301   12:00:03      1          -     -      -      -      -      -      -      -      -      -    -               
LOG
gpumem-read pmon.log
