# DTD v7 (2017: no <reserved>, processes without instance ids, 4-digit PCI
# domain, space indentation) and v13 (tabs, <reserved>, instance ids) say
# the same things in the elements gpumem reads.
cat > v7.xml <<'LOG'
<?xml version="1.0" ?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v7.dtd">
<nvidia_smi_log>
    <timestamp>Sat Feb 11 23:31:58 2017</timestamp>
    <driver_version>352.99</driver_version>
    <attached_gpus>1</attached_gpus>
    <gpu id="0000:00:03.0">
        <fb_memory_usage>
            <total>4095 MiB</total>
            <used>1011 MiB</used>
            <free>3084 MiB</free>
        </fb_memory_usage>
        <processes>
            <process_info>
                <pid>1234</pid>
                <type>C</type>
                <process_name>python</process_name>
                <used_memory>1000 MiB</used_memory>
            </process_info>
        </processes>
    </gpu>
</nvidia_smi_log>
LOG
cat > v13.xml <<'LOG'
<?xml version="1.0" ?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v13.dtd">
<nvidia_smi_log>
	<timestamp>Tue Dec 30 09:46:54 2025</timestamp>
	<driver_version>590.44.01</driver_version>
	<cuda_version>13.1</cuda_version>
	<attached_gpus>1</attached_gpus>
	<gpu id="00000000:00:03.0">
		<fb_memory_usage>
			<total>4095 MiB</total>
			<reserved>0 MiB</reserved>
			<used>1011 MiB</used>
			<free>3084 MiB</free>
		</fb_memory_usage>
		<processes>
			<process_info>
				<gpu_instance_id>N/A</gpu_instance_id>
				<compute_instance_id>N/A</compute_instance_id>
				<pid>1234</pid>
				<type>C</type>
				<process_name>python</process_name>
				<used_memory>1000 MiB</used_memory>
			</process_info>
		</processes>
	</gpu>
</nvidia_smi_log>
LOG
gpumem-read v7.xml v13.xml
