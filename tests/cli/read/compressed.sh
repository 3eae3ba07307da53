# Compressed logs gpumem does not read are named by their compression,
# with the command that reads them, not taken for binary garbage; gzip
# inside gzip says so.  Each file is made by the compressor's own tool.
. "$TESTS/lib.sh"
gpumem-synth -s demo -o d.csv
for tool in zstd xz bzip2 lz4; do
	command -v $tool > /dev/null || skip "$tool is not installed"
done
zstd -q -c d.csv > d.csv.zst
xz -c d.csv > d.csv.xz
bzip2 -c d.csv > d.csv.bz2
lz4 -q -c d.csv > d.csv.lz4
gzip -c d.csv | gzip -c > twice.gz
zstd -q -c d.csv | gzip -c > zst.gz
for f in d.csv.zst d.csv.xz d.csv.bz2 d.csv.lz4 twice.gz zst.gz; do
	rc=0; gpumem-read "$f" > /dev/null || rc=$?
	echo "exit $rc"
done
# What the message says to run reads it.
gzip -dc twice.gz | gpumem-read -q - | cmp - d.csv
