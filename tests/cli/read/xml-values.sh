# nvidia-smi -q -x documents written with a here-document, one after
# another as a loop appends them, with values that cannot be read: each
# is named with its line.  A document whose <timestamp> is not a date has
# no time and is skipped (no --interval to place it); memory not in MiB
# is unknown, the process still listed; a <pid> that is not a number
# leaves its process out.  A document of another root is skipped, and
# elements nested past 64 end the input.
. "$TESTS/lib.sh"
doc() {	# TIMESTAMP PID USED: a document, its elements packed on 8 lines
	cat <<XML
<?xml version="1.0" ?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">
<nvidia_smi_log><timestamp>$1</timestamp><attached_gpus>1</attached_gpus>
<gpu id="00000000:01:00.0"><minor_number>0</minor_number><fb_memory_usage>
<total>16384 MiB</total><used>4096 MiB</used><free>12288 MiB</free>
</fb_memory_usage><processes><process_info><pid>$2</pid>
<process_name>python3</process_name><used_memory>$3</used_memory>
</process_info></processes></gpu></nvidia_smi_log>
XML
}
{
	doc 'Thu Jan  1 00:00:00 2026' 4242 '4000 MiB'
	doc 'yesterday' 4242 '4000 MiB'
	doc 'Thu Jan  1 00:00:02 2026' 4242 '4 GiB'
	doc 'Thu Jan  1 00:00:03 2026' 4242 '4000 MiB'
} > values.xml
gpumem-read values.xml
doc 'Thu Jan  1 00:00:00 2026' abc '4000 MiB' > pid.xml
gpumem-read pid.xml
{
	doc 'Thu Jan  1 00:00:00 2026' 4242 '4000 MiB'
	printf '<?xml version="1.0" ?>\n<gpu_log></gpu_log>\n'
} > root.xml
gpumem-read root.xml
awk 'BEGIN {
	print "<?xml version=\"1.0\" ?>\n<nvidia_smi_log>"
	for (i = 0; i < 70; i++)
		printf "<a>"
	for (i = 0; i < 70; i++)
		printf "</a>"
	print "\n</nvidia_smi_log>"
}' > deep.xml
rc=0; gpumem-read deep.xml || rc=$?
echo "deep: exit $rc"
