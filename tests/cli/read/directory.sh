# A directory stands for its files, device logs first, metadata left out:
# what gpumem record writes reads back as the stream synth makes.
. "$TESTS/lib.sh"
gpumem-synth -s concurrent --nvsmi run
printf 'command: x\n' > run/meta
touch run/.hidden
gpumem-read -q run > got.csv || die "exit $?"
gpumem-synth -s concurrent | cmp - got.csv || die "differs"
mkdir empty
rc=0; gpumem-read empty 2> err.txt > /dev/null || rc=$?
expect_eq "exit of an empty directory" $rc 2
expect_eq "message" "$(cat err.txt)" "gpumem-read: empty: no logs in this directory"
