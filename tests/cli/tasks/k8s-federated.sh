# dcgm-exporter scrapes as a Prometheus server keeps them (its /federate
# output appended once a scrape): labels sorted by name, a timestamp in
# milliseconds on each sample, the server's instance and job labels, and
# the exporter's own pod, namespace and container under those names,
# the mapping's renamed exported_pod, exported_namespace and
# exported_container.  The pod is the exported one: ml/train-a/trainer
# on GPU 0 for two scrapes, released at the third; the exporter's pod
# (gpu-operator/nvidia-dcgm-exporter-x7k2p), on every series, is no task.
awk 'BEGIN {
	n = split("0 -|8000 ml/train-a/trainer|8000 ml/train-a/trainer|0 -", sc, "|")
	for (s = 1; s <= n; s++) {
		split(sc[s], f, " ")
		p[1] = p[2] = p[3] = ""
		if (f[2] != "-")
			split(f[2], p, "/")
		for (m = 1; m <= 2; m++) {
			fam = m == 1 ? "DCGM_FI_DEV_FB_FREE" : "DCGM_FI_DEV_FB_USED"
			printf "# TYPE %s untyped\n", fam
			printf "%s{DCGM_FI_DRIVER_VERSION=\"535.104.05\",Hostname=\"gpunode1\",UUID=\"GPU-00c56d28-0da5-6d26-a36a-e7af1ce2586e\",container=\"nvidia-dcgm-exporter\",device=\"nvidia0\",exported_container=\"%s\",exported_namespace=\"%s\",exported_pod=\"%s\",gpu=\"0\",instance=\"10.0.0.5:9400\",job=\"gpu-metrics\",modelName=\"NVIDIA A100-SXM4-40GB\",namespace=\"gpu-operator\",pod=\"nvidia-dcgm-exporter-x7k2p\"} %d %.0f\n",
			    fam, p[3], p[1], p[2], m == 1 ? 40329 - f[1] : f[1],
			    1735689600000 + 15000 * (s - 1)
		}
	}
}' > federate.prom
gpumem-read federate.prom | cut -d, -f1,3-
gpumem-tasks -q federate.prom
