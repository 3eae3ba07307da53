# --map on rows a logger may write: a UTF-8 byte order mark before the
# header, '#' comment lines, ISO 8601 and nvidia-smi times, an optional
# column (free?) the file lacks, and cells that are not a GPU number or
# a process id, said with their line and the row left out.
. "$TESTS/lib.sh"
printf '\357\273\277when,card,pid,used\n# logger v2\n' > iso.csv
printf '2026-01-01T00:00:00Z,GPU[0],0,100\n' >> iso.csv
printf '2026-01-01T00:00:01Z,gpu one,0,200\n' >> iso.csv
printf '2026-01-01T00:00:02Z,1,x12,300\n' >> iso.csv
printf '2026-01-01T00:00:03Z,1,0,400\n' >> iso.csv
gpumem-read --map timestamp=when:iso,gpu=card,pid=pid,memory_used=used,memory_free=free? iso.csv
printf 'when,used\n2026/01/01 00:00:05.500,512\n' > smi.csv
gpumem-read --map timestamp=when:nvsmi,memory_used=used smi.csv
