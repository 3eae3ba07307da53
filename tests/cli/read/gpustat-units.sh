# gpustat's process entries are name(NM), in MiB.  An entry in another
# unit (K, G) is not read as MiB: it is named as bad and counted, and the
# entries beside it are read.
cat > gs.log <<'LOG'
box  Mon Jan 15 10:23:45 2024  535.104.05
[0] NVIDIA A10G | 25°C,   0 % | 11961 / 23028 MB | ann/10(11420M) bob/11(530K) cy/12(1G)
LOG
rc=0
gpumem-read gs.log || rc=$?
echo "exit $rc"
