# gpustat 1.x: °C, power, processes with -p (user/pid) and -c -p
# (cmd/pid): real pids; "??" for unknown memory; -u -c ("user:cmd").
# Lines that are neither headers nor GPU lines are named.
cat > gs.log <<'LOG'
gpu-node-3  Mon Jan 15 10:23:45 2024  535.104.05
[0] NVIDIA A10G | 25°C,   0 %,  10 / 300 W | 11961 / 23028 MB | alice/52046(11420M) bob/52100(530M)
[1] NVIDIA A10G | 27°C,   0 %,  11 / 300 W |    ?? / 23028 MB |
gpu-node-3  Mon Jan 15 10:24:45 2024  535.104.05
[0] NVIDIA A10G | 25°C,   0 %,  10 / 300 W | 11500 / 23028 MB | python/52046(11420M)
[1] NVIDIA A10G | 27°C,   0 %,  11 / 300 W |     3 / 23028 MB | alice:python(3M)
something odd
[1] NVIDIA A10G | no memory here |
LOG
gpumem-read gs.log
# An old gpustat: no driver version in the header.
cat > old.log <<'LOG'
box  Mon Jan 15 10:23:45 2024
[0] GeForce GTX 1080 | 40'C,   0 % |   441 /  8116 MB | ann(439M)
LOG
gpumem-read -q old.log
