# A zstd frame's header names the window its decoder needs, an xz block's
# the dictionary: a file of a few kilobytes may ask for gigabytes (eight
# such zstd files of 12 KB took 1.06 GB together).  All compressed inputs
# open at once share one budget (--mem-budget, 512 MiB): an input that
# would take them past it is refused, named with what it needs, and the
# others are read.  The sizes are the tools' own: `zstd -lv` and
# `xz -lvv` say the window and the memory the decoder needs.
. "$TESTS/lib.sh"
for tool in zstd xz; do
	command -v $tool > /dev/null || skip "$tool is not installed"
done
gpumem-synth -s demo --host a -o d.csv
gpumem-synth -s demo --host b -o e.csv
n=$(nrec d.csv)
# From standard input, as logrotate runs them: the length unknown, the
# window is the level's (zstd shrinks it to a file's length when it
# knows it).  (xz and zstd allocate a window lazily: quick to make.)
zstd -q --long=31 < d.csv > long31.zst
zstd -q -19 < d.csv > small.zst
xz -T1 --lzma2=dict=1536MiB < d.csv > dict1536.xz
xz -T1 -6 < e.csv > small.xz
zstd -lv long31.zst 2>&1 | grep -q 'Window Size: 2.00 GiB' ||
    die "zstd --long=31: $(zstd -lv long31.zst 2>&1)"
xz -lvv dict1536.xz | grep -q 'Memory needed: *1537 MiB' ||
    die "xz dict=1536MiB: $(xz -lvv dict1536.xz)"

# The two that ask too much are refused; the small ones read.
rc=0; gpumem-read -q -j 1 long31.zst small.zst dict1536.xz small.xz \
    > got.csv || rc=$?
expect_eq "large windows: exit" $rc 2

expect_eq "small windows: records" "$(nrec got.csv)" $((2 * n))

# The budget is shared: two inputs whose windows are 128 MiB (zstd
# --long=27) fit in 300 MiB together, not in 200; the first read is read,
# the second refused with what the first holds.
zstd -q --long=27 < d.csv > a27.zst
zstd -q --long=27 < e.csv > b27.zst
gpumem-read -q --mem-budget 300 a27.zst b27.zst > got.csv
expect_eq "two in 300 MiB: records" "$(nrec got.csv)" $((2 * n))
rc=0; gpumem-read -q -j 1 --mem-budget 200 a27.zst b27.zst > got.csv ||
    rc=$?
expect_eq "two in 200 MiB: exit" $rc 2
expect_eq "two in 200 MiB: records" "$(nrec got.csv)" $n
# Raised, what was refused is read (zstd's own default stops at 128 MiB).
gpumem-read -q --mem-budget 2100 long31.zst | cmp - d.csv
gpumem-read -q --mem-budget 1537 dict1536.xz | cmp - d.csv
# Lowered below what even xz -6 needs.
rc=0; gpumem-read -q --mem-budget 8 small.xz > /dev/null || rc=$?
expect_eq "xz -6 in 8 MiB: exit" $rc 2

# A frame whose header a read cuts (the first read of an input is 64
# KiB): a skippable frame of 8 + 65523 bytes first puts the frame's
# magic and its descriptor, not its window, before the cut.  zstd reads
# it.
{
	printf '\120\052\115\030\363\377\000\000'	# magic 0x184D2A50, 65523
	head -c 65523 /dev/zero
	cat small.zst
} > cut-header.zst
zstd -dc cut-header.zst | cmp - d.csv
timeout 60 gpumem-read -q cut-header.zst | cmp - d.csv
# A file that ends inside a frame header.
head -c 6 small.zst > short.zst
rc=0; gpumem-read -q short.zst > /dev/null || rc=$?
expect_eq "header cut short: exit" $rc 2
