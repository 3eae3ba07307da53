# pcapng sections of both byte orders in one file (captures of a
# big-endian and a little-endian host joined by cat): every record of
# every section.  The big-endian sections are written by perl from the
# pcapng specification (draft-ietf-opsawg-pcapng), not by gpumem; tshark,
# when installed, reads every packet of each file too.
. "$TESTS/lib.sh"
gpumem-synth -s clean --gmem --host 10.0.0.7 > a.csv
gpumem-synth -s leak --gmem --host 2001:db8::8 > b.csv
gpumem-pcap -q --pcapng -o a.pcapng a.csv
gpumem-pcap -q --pcapng --tcp -o b.pcapng b.csv
# Each block in the other byte order: SHB, IDB (with its options), EPB.
cat > swap.pl <<'PERL'
binmode STDIN; binmode STDOUT;
local $/; my $d = <STDIN>; my $o = 0;
sub opts {
	my ($s) = @_; my $r = ""; my $i = 0;
	while ($i + 4 <= length($s)) {
		my ($c, $l) = unpack("v v", substr($s, $i, 4));
		my $v = substr($s, $i + 4, $l);
		my $pad = (4 - $l % 4) % 4;
		$v = reverse($v) if $l == 8 && $c == 14;	# if_tsoffset
		$r .= pack("n n", $c, $l) . $v . ("\0" x $pad);
		last if $c == 0;
		$i += 4 + $l + $pad;
	}
	return $r;
}
while ($o < length($d)) {
	my ($t, $len) = unpack("V V", substr($d, $o, 8));
	my $b = substr($d, $o + 8, $len - 12);
	my $body;
	if ($t == 0x0A0D0D0A) {
		my ($bom, $maj, $min) = unpack("V v v", $b);
		$body = pack("N n n", $bom, $maj, $min) .
		    reverse(substr($b, 8, 8)) . opts(substr($b, 16));
	} elsif ($t == 1) {
		my ($lt, $res, $snap) = unpack("v v V", $b);
		$body = pack("n n N", $lt, $res, $snap) . opts(substr($b, 8));
	} elsif ($t == 6) {
		my @f = unpack("V5", $b);
		my $pl = ($f[3] + 3) & ~3;
		$body = pack("N5", @f) . substr($b, 20, $pl) .
		    opts(substr($b, 20 + $pl));
	} else {
		die sprintf("block type 0x%x", $t);
	}
	print pack("N N", $t, $len) . $body . pack("N", $len);
	$o += $len;
}
PERL
perl swap.pl < a.pcapng > a-be.pcapng
perl swap.pl < b.pcapng > b-be.pcapng
cat a.pcapng b-be.pcapng > le-be.pcapng
cat b-be.pcapng a.pcapng > be-le.pcapng
cat a-be.pcapng b.pcapng > be-le2.pcapng
gzip -c le-be.pcapng > le-be.pcapng.gz
if command -v tshark > /dev/null; then
	for f in a b; do
		expect_eq "tshark: $f-be.pcapng" \
		    "$(tshark -r $f-be.pcapng 2> /dev/null | wc -l)" \
		    "$(tshark -r $f.pcapng 2> /dev/null | wc -l)"
	done
fi
gpumem-read -q a.csv b.csv > ab.csv
gpumem-read -q b.csv a.csv > ba.csv
for f in le-be.pcapng:ab be-le.pcapng:ba be-le2.pcapng:ab le-be.pcapng.gz:ab; do
	gpumem-read ${f%:*} > got.csv || die "${f%:*}: exit $?"
	cmp -s got.csv ${f#*:}.csv || die "${f%:*}: $(diff got.csv ${f#*:}.csv | head -3)"
done
