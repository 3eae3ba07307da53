# Captures read in passes (more inputs than may be open at once): each
# capture's summary line names what the capture is ("pcap capture,
# Ethernet" is refined by the capture reader in its own state, which
# closes with the input when it is parked between passes) as one pass
# does.  Under ASan the description was read after it was freed.  Three
# captures under --max-open 2, then 40 under "ulimit -n 24".
. "$TESTS/lib.sh"
mkdir tmp
TMPDIR=$PWD/tmp
export TMPDIR
# Freed memory filled (glibc): the normal build shows a use after free too.
MALLOC_PERTURB_=165
export MALLOC_PERTURB_
gpumem-synth -s random --gpus 1 --duration 30s --host h -o s.csv
for i in 1 2 3; do
	gpumem-pcap -q --src 192.0.2.$i -o c$i.pcap s.csv
done
gpumem-pcap -q --pcapng --link sll --src 192.0.2.4 -o c4.pcapng s.csv
gpumem-read -j 1 c1.pcap c2.pcap c3.pcap c4.pcapng > one.out 2> one.err
gpumem-read -j 1 --max-open 2 c1.pcap c2.pcap c3.pcap c4.pcapng \
    > p.out 2> p.err
cmp -s one.out p.out || die "--max-open 2: stdout differs"
cmp -s one.err p.err ||
	die "--max-open 2: stderr differs: $(diff one.err p.err | head -5)"
cat p.err
# 40 captures under an open-file limit of 24: read in passes, no option.
for i in $(seq 10 49); do
	gpumem-pcap -q --src 192.0.2.$i -o m$i.pcap s.csv
done
gpumem-read -j 1 m*.pcap > one.out 2> one.err
(ulimit -n 24 && exec gpumem-read -j 1 m*.pcap) > low.out 2> low.err
cmp -s one.out low.out || die "ulimit -n 24: stdout differs"
cmp -s one.err low.err ||
	die "ulimit -n 24: stderr differs: $(diff one.err low.err | head -5)"
n=$(grep -c ': 60 records (pcap capture, Ethernet: ' low.err || :)
expect_eq "ulimit -n 24: summary lines" "$n" 40
[ -z "$(ls -A tmp)" ] || die "left $(ls tmp)"
