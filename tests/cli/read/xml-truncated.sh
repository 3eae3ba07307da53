# A document cut off (the log was killed mid-write, or the next document
# began): the GPUs it completed are kept, the cut is named.
cat > cut.xml <<'LOG'
<?xml version="1.0" ?>
<nvidia_smi_log>
	<timestamp>Fri Aug  4 11:44:30 2023</timestamp>
	<attached_gpus>2</attached_gpus>
	<gpu id="00000000:3B:00.0">
		<fb_memory_usage>
			<total>16384 MiB</total>
			<used>100 MiB</used>
			<free>16284 MiB</free>
		</fb_memory_usage>
	</gpu>
	<gpu id="00000000:8B:00.0">
		<fb_memory_usage>
			<total>16384 MiB</total>
			<used>2
LOG
gpumem-read cut.xml
# Cut, then the next document begins: both are read.
{
	sed '$d' cut.xml
	cat <<'LOG'
<?xml version="1.0" ?>
<nvidia_smi_log>
	<timestamp>Fri Aug  4 11:44:31 2023</timestamp>
	<attached_gpus>1</attached_gpus>
	<gpu id="00000000:3B:00.0">
		<fb_memory_usage>
			<total>16384 MiB</total>
			<used>101 MiB</used>
			<free>16283 MiB</free>
		</fb_memory_usage>
	</gpu>
</nvidia_smi_log>
LOG
} > cut2.xml
gpumem-read cut2.xml
