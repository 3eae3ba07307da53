# A capture bundle with an -q -x section (read), a pmon -s um section
# without -o (no time: refused, with the reason under -v), a dmon -s u
# section (no memory: refused) and a help text (no format reads it).
{
	rule='################################################################'
	printf '%s\n# load :: nvidia-smi -q -x\n# $ nvidia-smi -q -x\n%s\n' "$rule" "$rule"
	cat <<'LOG'
<?xml version="1.0" ?>
<nvidia_smi_log>
	<timestamp>Fri Jul  3 22:11:09 2026</timestamp>
	<attached_gpus>1</attached_gpus>
	<gpu id="00000000:83:00.0">
		<fb_memory_usage><total>143771 MiB</total><reserved>614 MiB</reserved><used>32362 MiB</used><free>110796 MiB</free></fb_memory_usage>
		<processes><process_info><pid>10291</pid><type>C</type><process_name>memhog</process_name><used_memory>2566 MiB</used_memory></process_info></processes>
	</gpu>
</nvidia_smi_log>
LOG
	printf '%s\n# load :: pmon\n# $ nvidia-smi pmon -s um -c 1\n%s\n' "$rule" "$rule"
	cat <<'LOG'
# gpu         pid   type     sm    mem    enc    dec     fb    command 
# Idx           #    C/G      %      %      %      %     MB    name 
    0      10291     C      0      0      -      -   2566    memhog         
LOG
	printf '%s\n# load :: dmon\n# $ nvidia-smi dmon -s u -c 1\n%s\n' "$rule" "$rule"
	cat <<'LOG'
# gpu     sm    mem    enc    dec 
# Idx      %      %      %      % 
    0    100      8      0      0 
LOG
	printf '%s\n# help\n# $ nvidia-smi --help-query-gpu\n%s\n' "$rule" "$rule"
	echo 'List of valid properties to query for the switch "--query-gpu=":'
} > bundle.txt
gpumem-read -v bundle.txt
