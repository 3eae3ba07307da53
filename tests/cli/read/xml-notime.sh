# Documents without <timestamp> (trimmed fixtures, some wrappers): one
# per --interval from --start.  Without them the input is refused.
doc() {
	cat <<DOC
<?xml version="1.0" ?>
<nvidia_smi_log>
	<attached_gpus>1</attached_gpus>
	<gpu id="00000000:01:00.0">
		<fb_memory_usage><total>4096 MiB</total><used>$1 MiB</used><free>$((4096 - $1)) MiB</free></fb_memory_usage>
	</gpu>
</nvidia_smi_log>
DOC
}
{ doc 42; doc 43; } > notime.xml
gpumem-read --start 2024-01-01T00:00:00Z --interval 10s notime.xml
rc=0; gpumem-read notime.xml || rc=$?; echo "exit $rc"
