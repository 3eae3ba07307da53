# The shipped maps (--map amd-smi, rocm-smi, xpu-smi) are found without
# $GPUMEM_MAPS wherever the programs run from: the build tree (bin/, the
# source's formats/maps), an install under any prefix (make install
# PREFIX=...: PREFIX/share/gpumem/maps beside PREFIX/bin), and a package's
# /usr (DESTDIR=... PREFIX=/usr, the Debian package's layout), though the
# data folder compiled in is another.
. "$TESTS/lib.sh"
unset GPUMEM_MAPS
command -v make > /dev/null || skip "make is absent"
# amd-smi metric --mem-usage --csv --watch 10, as the map's comment has it.
printf 'timestamp,gpu,total_vram,used_vram,free_vram\n1767225610,0,24576,2560,21716\n1767225620,1,24576,512,24064\n' > amd.csv
printf 'timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name\n1767225610000000000,,0,0,2560,21716,24576,\n1767225620000000000,,1,0,512,24064,24576,\n' > want
gpumem-read -q --map amd-smi amd.csv > got
cmp -s got want || die "build tree: records differ: $(diff want got | head -n 5)"
# Install the programs already built (lib.sh's scratch_make).
scratch_make install PREFIX="$PWD/prefix"
scratch_make install DESTDIR="$PWD/pkg" PREFIX=/usr
rm -rf src
for bin in prefix/bin pkg/usr/bin; do
	for m in amd-smi rocm-smi xpu-smi; do
		[ -f "${bin%/bin}/share/gpumem/maps/$m.yaml" ] || die "$bin: $m.yaml not installed"
	done
	"$bin/gpumem-read" -q --map amd-smi amd.csv > got ||
	    die "$bin: --map amd-smi refused"
	cmp -s got want || die "$bin: records differ"
done
