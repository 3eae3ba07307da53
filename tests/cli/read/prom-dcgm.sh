# dcgm-exporter scrapes appended to a file by a loop with no time lines:
# a scrape ends where a family comes again, and --start/--interval time
# them.  Labels in any order, spaces after commas (as the README writes
# them), the Hostname label as the host, FB_RESERVED in the derived total,
# a blank sentinel and NaN as missing values, MIG instance series counted
# and left in their GPU.
scrape() {	# scrape USED0 USED1
	cat <<PROM
# HELP DCGM_FI_DEV_FB_FREE Framebuffer memory free (in MiB).
# TYPE DCGM_FI_DEV_FB_FREE gauge
DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-aaaa",device="nvidia0",modelName="NVIDIA A100",Hostname="node7"} $((40000 - $1))
DCGM_FI_DEV_FB_FREE{UUID="GPU-bbbb", gpu="1", Hostname="node7", device="nvidia1"} $((40000 - $2))
# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).
# TYPE DCGM_FI_DEV_FB_USED gauge
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-aaaa",device="nvidia0",modelName="NVIDIA A100",Hostname="node7"} $1
DCGM_FI_DEV_FB_USED{Hostname="node7",gpu="1",UUID="GPU-bbbb",device="nvidia1"} $2
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-aaaa",GPU_I_PROFILE="1g.10gb",GPU_I_ID="3",Hostname="node7"} 17
# HELP DCGM_FI_DEV_FB_RESERVED Framebuffer memory reserved (in MiB).
# TYPE DCGM_FI_DEV_FB_RESERVED gauge
DCGM_FI_DEV_FB_RESERVED{gpu="0",UUID="GPU-aaaa",Hostname="node7"} 960
DCGM_FI_DEV_FB_RESERVED{gpu="1",UUID="GPU-bbbb",Hostname="node7"} 9223372036854775794
# HELP DCGM_FI_DEV_GPU_TEMP GPU temperature (in C).
# TYPE DCGM_FI_DEV_GPU_TEMP gauge
DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID="GPU-aaaa",Hostname="node7"} NaN
PROM
}
{ scrape 100 5; scrape 20000 5; scrape 30000 6; } > dcgm.prom
gpumem-read --start 2025-01-01T00:00:00Z --interval 15s dcgm.prom
gpumem-read --start 2025-01-01T00:00:00Z dcgm.prom; echo "exit $?"
