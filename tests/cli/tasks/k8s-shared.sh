# Two pods on one GPU (time-slicing): dcgm-exporter writes the GPU's
# series once per pod, each with the whole GPU's FB_USED, which says
# nothing of how the pods split it.  Each pod is still its own task, its
# memory N/A for its whole life, even after the other pod has gone (so
# that its life is one task): the tasks are estimated from the device's
# usage (note 'estimated'), as for Windows WDDM.  team/job-a and
# team/job-b share GPU 0 for two scrapes at 10000 MiB; job-b goes on
# alone at 4000 MiB, then the GPU is free.  Scrapes 15 s apart.
awk 'BEGIN {
	# a scrape: GPU 0 used, then the pods on it
	n = split("0|10000 a b|10000 a b|4000 b|0", sc, "|")
	for (s = 1; s <= n; s++) {
		np = split(sc[s], f, " ") - 1
		for (m = 1; m <= 2; m++) {
			fam = m == 1 ? "DCGM_FI_DEV_FB_FREE" : "DCGM_FI_DEV_FB_USED"
			printf "# HELP %s Framebuffer memory %s (in MiB).\n", fam,
			    m == 1 ? "free" : "used"
			printf "# TYPE %s gauge\n", fam
			for (i = 1; i <= (np > 0 ? np : 1); i++)
				printf "%s{gpu=\"0\",UUID=\"GPU-00c56d28-0da5-6d26-a36a-e7af1ce2586e\",device=\"nvidia0\",modelName=\"NVIDIA A100-SXM4-40GB\",Hostname=\"gpunode1\",DCGM_FI_DRIVER_VERSION=\"535.104.05\",container=\"%s\",namespace=\"%s\",pod=\"%s\"} %d\n",
				    fam, np ? "main" : "", np ? "team" : "",
				    np ? "job-" f[i + 1] : "",
				    m == 1 ? 40329 - f[1] : f[1]
		}
	}
}' > shared.prom
gpumem-read --start 2025-01-01T00:00:00Z --interval 15s shared.prom
gpumem-tasks --start 2025-01-01T00:00:00Z --interval 15s shared.prom
