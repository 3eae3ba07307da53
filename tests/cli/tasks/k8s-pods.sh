# dcgm-exporter with its Kubernetes mapping: every FB series carries
# container, namespace and pod labels (empty on a GPU no pod has), in the
# layout of a real scrape (tests/corpus/real/dcgm-exporter-prom) with the
# mapping's labels after it.  A pod's life on a GPU is a task named
# namespace/pod/container, its memory the series' FB_USED.  GPU 0: the
# pod ml/train-a runs three scrapes at 8000 MiB, and the next scrape
# without it has the memory back (released, delay 0).  GPU 1: ml/leaky-b
# grows to 6000 MiB, ends, and its memory stays: leaked.  Both end at the
# scrape that has no pod at all, not at the next one, where ml/eval-c
# starts on GPU 0 (running at the end).  Scrapes 15 s apart from --start;
# the truth is the table in the awk program.
awk 'BEGIN {
	# a scrape: GPU 0 used, its pod, GPU 1 used, its pod ("-": none)
	n = split("0 - 0 -|8000 ml/train-a/trainer 0 -|" \
	    "8000 ml/train-a/trainer 5000 ml/leaky-b/worker|" \
	    "8000 ml/train-a/trainer 6000 ml/leaky-b/worker|" \
	    "0 - 6000 -|3000 ml/eval-c/eval 6000 -", sc, "|")
	for (s = 1; s <= n; s++) {
		split(sc[s], f, " ")
		for (m = 1; m <= 2; m++) {
			fam = m == 1 ? "DCGM_FI_DEV_FB_FREE" : "DCGM_FI_DEV_FB_USED"
			printf "# HELP %s Framebuffer memory %s (in MiB).\n", fam,
			    m == 1 ? "free" : "used"
			printf "# TYPE %s gauge\n", fam
			for (g = 0; g < 2; g++) {
				used = f[2 * g + 1]
				p[1] = p[2] = p[3] = ""
				if (f[2 * g + 2] != "-")
					split(f[2 * g + 2], p, "/")
				printf "%s{gpu=\"%d\",UUID=\"GPU-%d0c56d28-0da5-6d26-a36a-e7af1ce2586e\",device=\"nvidia%d\",modelName=\"NVIDIA A100-SXM4-40GB\",Hostname=\"gpunode1\",DCGM_FI_DRIVER_VERSION=\"535.104.05\",container=\"%s\",namespace=\"%s\",pod=\"%s\"} %d\n",
				    fam, g, g, g, p[3], p[1], p[2],
				    m == 1 ? 40329 - used : used
			}
		}
	}
}' > dcgm.prom
gpumem-read --start 2025-01-01T00:00:00Z --interval 15s dcgm.prom
gpumem-tasks -q --start 2025-01-01T00:00:00Z --interval 15s dcgm.prom
# Without the pod labels the same scrapes are the device alone, as before.
sed 's/,container="[^"]*",namespace="[^"]*",pod="[^"]*"//' dcgm.prom > bare.prom
gpumem-read --start 2025-01-01T00:00:00Z --interval 15s bare.prom |
    cut -d, -f4 | sort | uniq -c
