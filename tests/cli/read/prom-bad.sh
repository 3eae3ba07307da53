# Lines that are not Prometheus text are named and skipped; a scrape
# without GPU memory metrics (node_exporter) is refused.
cat > bad.prom <<'LOG'
# 2024-06-01T11:27:15Z
DCGM_FI_DEV_FB_USED{gpu="0"} 100
DCGM_FI_DEV_FB_USED{gpu="1" 100
DCGM_FI_DEV_FB_USED{gpu="2"} lots
DCGM_FI_DEV_FB_USED{gpu="3"} -5
DCGM_FI_DEV_FB_USED{gpu="4"} 5 yesterday
DCGM_FI_DEV_FB_USED{modelName="T4"} 5
{gpu="5"} 5
DCGM_FI_DEV_FB_USED{gpu="6"} 600
LOG
rc=0; gpumem-read bad.prom || rc=$?; echo "exit $rc"
cat > node.prom <<'LOG'
# HELP node_load1 1m load average.
# TYPE node_load1 gauge
node_load1 0.21
LOG
rc=0; gpumem-read node.prom || rc=$?; echo "exit $rc"
# Per-process series and no memory series (a cut scrape): nothing to read.
cat > procs.prom <<'LOG'
# scraped at 2026-07-03T22:11:10Z
nvidia_smi_compute_app_used_memory_bytes{pid="10291",process_name="memhog",uuid="0000"} 2.690646016e+09
LOG
rc=0; gpumem-read procs.prom || rc=$?; echo "exit $rc"
