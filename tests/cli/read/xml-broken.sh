# Broken XML: the rest of that document is skipped, with expat's reason;
# lines outside documents (a shell loop's date lines) are counted; the
# other documents are read.
good() {
	cat <<DOC
<?xml version="1.0" ?>
<nvidia_smi_log>
	<timestamp>$1</timestamp>
	<attached_gpus>1</attached_gpus>
	<gpu id="00000000:3B:00.0">
		<fb_memory_usage><total>16384 MiB</total><used>$2 MiB</used><free>$((16384 - $2)) MiB</free></fb_memory_usage>
	</gpu>
</nvidia_smi_log>
DOC
}
{
	echo "Fri Aug  4 11:44:29 UTC 2023"
	good "Fri Aug  4 11:44:30 2023" 100
	echo "Fri Aug  4 11:44:30 UTC 2023"
	good "Fri Aug  4 11:44:31 2023" 200 | sed 's|</fb_memory_usage>|</fb_memory>|'
	good "Fri Aug  4 11:44:32 2023" 300 | sed 's|<used>300 MiB|<used>3x0 MiB|'
	good "Fri Aug  4 11:44:33 2023" 400
} > broken.xml
gpumem-read broken.xml; echo "exit $?"
