# dcgmi dmon -e 250,251,252 -d 500 on two GPUs with MIG instances: FBTTL,
# FBFRE, FBUSD (MB = MiB); "N/A" and a blank sentinel are missing values;
# GPU-I and GPU-CI rows are a share of their GPU (counted, not read); the
# header pair comes again (every 14 samples in dcgmi).  dcgmi prints no
# time: --interval (the -d) and --start place the samples.
cat > dcgmi.log <<'LOG'
#Entity   FBTTL            FBFRE            FBUSD            
ID                                                            
GPU 0     40960            40000            540              
GPU-I 1   9984             9900             84               
GPU-CI 1  9984             9900             84               
GPU 1     40960            N/A              N/A              
GPU 0     40960            30000            10540            
GPU 1     40960            2147483634       900              
#Entity   FBTTL            FBFRE            FBUSD            
ID                                                            
GPU 0     40960            29000            11540            
GPU 1     40960            40000            900              
LOG
gpumem-read --interval 500ms --start 2024-05-01T10:00:00Z dcgmi.log
