# nvidia_gpu_exporter: memory in bytes (to MiB, rounded to the nearest),
# the uuid label without "GPU-", the index from nvidia_smi_index, which
# comes after the memory series (families are sorted by name).  Its
# per-process series make each scrape a poll: pid 10309 is gone from the
# second scrape, so it ended there.
scrape() {	# scrape APPS...
	echo '# HELP nvidia_smi_compute_app_used_memory_bytes GPU memory used by the process.'
	echo '# TYPE nvidia_smi_compute_app_used_memory_bytes gauge'
	for a in "$@"; do echo "$a"; done
	cat <<'PROM'
# HELP nvidia_smi_compute_apps Number of processes with a compute context on the GPU.
# TYPE nvidia_smi_compute_apps gauge
nvidia_smi_compute_apps{uuid="00000000-0000-0000-0000-000000000000"} 2
# HELP nvidia_smi_gpu_info A metric with a constant '1' value labeled by gpu uuid, name, ...
# TYPE nvidia_smi_gpu_info gauge
nvidia_smi_gpu_info{index="3",name="NVIDIA H200",pci_bus_id="00000000:83:00.0",uuid="00000000-0000-0000-0000-000000000000"} 1
# HELP nvidia_smi_memory_free_bytes memory.free [MiB]
# TYPE nvidia_smi_memory_free_bytes gauge
nvidia_smi_memory_free_bytes{uuid="00000000-0000-0000-0000-000000000000"} 1.16178026496e+11
# HELP nvidia_smi_memory_used_bytes memory.used [MiB]
# TYPE nvidia_smi_memory_used_bytes gauge
nvidia_smi_memory_used_bytes{uuid="00000000-0000-0000-0000-000000000000"} 3.3934016512e+10
PROM
}
{
	echo '# scraped at 2026-07-03T22:11:10Z'
	scrape 'nvidia_smi_compute_app_used_memory_bytes{pid="10291",process_name="/root/tools/memhog",uuid="00000000-0000-0000-0000-000000000000"} 2.690646016e+09' \
	    'nvidia_smi_compute_app_used_memory_bytes{pid="10309",process_name="./gpu_burn",uuid="00000000-0000-0000-0000-000000000000"} 2.9605494784e+10'
	echo '# scraped at 2026-07-03T22:11:25Z'
	scrape 'nvidia_smi_compute_app_used_memory_bytes{pid="10291",process_name="/root/tools/memhog",uuid="00000000-0000-0000-0000-000000000000"} 2690000000'
} > nvexp.metrics
gpumem-read nvexp.metrics
