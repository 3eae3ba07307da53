# A loop of nvidia-smi -q -x (one document per poll, concatenated), two
# GPUs in index order: the position is the index, and the bus ids and
# UUIDs are learnt for other logs of the run.  pid 4242 is listed in the
# first two documents and not in the third: it ended there.  The third
# document begins on the line where the second ends.
doc() {	# doc TIME USED0 USED1 PROCESS-XML
	cat <<DOC
<?xml version="1.0" ?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">
<nvidia_smi_log>
	<timestamp>$1</timestamp>
	<driver_version>535.54.03</driver_version>
	<attached_gpus>2</attached_gpus>
	<gpu id="00000000:3B:00.0">
		<uuid>GPU-aaaa</uuid>
		<fb_memory_usage>
			<total>40960 MiB</total>
			<reserved>420 MiB</reserved>
			<used>$2 MiB</used>
			<free>$((40960 - 420 - $2)) MiB</free>
		</fb_memory_usage>
		<processes>
$4
		</processes>
	</gpu>
	<gpu id="00000000:8B:00.0">
		<uuid>GPU-bbbb</uuid>
		<fb_memory_usage>
			<total>40960 MiB</total>
			<reserved>420 MiB</reserved>
			<used>$3 MiB</used>
			<free>$((40960 - 420 - $3)) MiB</free>
		</fb_memory_usage>
		<processes />
	</gpu>
</nvidia_smi_log>
DOC
}
proc='			<process_info>
				<gpu_instance_id>N/A</gpu_instance_id>
				<compute_instance_id>N/A</compute_instance_id>
				<pid>4242</pid>
				<type>C</type>
				<process_name>python3 train.py --lr 0.1, --bs 8</process_name>
				<used_memory>8000 MiB</used_memory>
			</process_info>'
{
	doc "Fri Aug  4 11:44:30 2023" 8005 4 "$proc"
	doc "Fri Aug  4 11:44:31 2023" 8005 4 "$proc" | sed '$d'
	printf '</nvidia_smi_log>'
	doc "Fri Aug  4 11:44:32 2023" 5 4 ""
} > loop.xml
gpumem-read loop.xml
# The query-gpu log of the same run names the GPUs by UUID: same indexes.
cat > apps.csv <<'LOG'
timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]
2023/08/04 11:44:31.500, GPU-bbbb, 77, other, 100 MiB
LOG
gpumem-read -q loop.xml apps.csv | grep ',77,'
# The same documents written without line ends, one after another on a
# single line (and junk between two of them): each "<?xml" begins one.
{ doc "Fri Aug  4 11:44:30 2023" 8005 4 "$proc"; printf 'junk'; doc "Fri Aug  4 11:44:31 2023" 1 4 ""; doc "Fri Aug  4 11:44:32 2023" 2 4 ""; } | tr -d '\n\t' > oneline.xml
gpumem-read oneline.xml
