# A DTD version outside 7..13, or a DTD that is not nvidia-smi's, is read
# with a warning (-q silences it); a root element that is not
# nvidia_smi_log is refused.
body='<nvidia_smi_log>
	<timestamp>Fri Aug  4 11:44:30 2023</timestamp>
	<attached_gpus>1</attached_gpus>
	<gpu id="00000000:3B:00.0">
		<fb_memory_usage><total>16384 MiB</total><used>100 MiB</used><free>16284 MiB</free></fb_memory_usage>
	</gpu>
</nvidia_smi_log>'
printf '<?xml version="1.0" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v14.dtd">\n%s\n' "$body" > v14.xml
printf '<?xml version="1.0" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM "gpu-report.dtd">\n%s\n' "$body" > other.xml
printf '<?xml version="1.0" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v5.dtd">\n%s\n' "$body" > v5.xml
gpumem-read v14.xml other.xml v5.xml
gpumem-read -q v14.xml | tail -n 1
printf '<?xml version="1.0" ?>\n<gpus>\n<gpu id="0"/>\n</gpus>\n' > foreign.xml
rc=0; gpumem-read foreign.xml || rc=$?; echo "exit $rc"
