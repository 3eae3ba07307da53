# The command list exists once, in the tree: a top-level .c of formats/,
# analyze/ or reports/ is a command.  gpumem.1 names every command and no
# other, each man page is the command's, and gpumem --help lists every
# gpumem-* program built, with its man page's description.
. "$TESTS/lib.sh"
top=$TESTS/..
for d in formats analyze reports; do
	for c in "$top"/$d/*.c; do
		basename "$c" .c
	done
done | sort > tree.txt
[ "$(wc -l < tree.txt)" -ge 11 ] || die "only $(wc -l < tree.txt) commands in the tree"
for b in "$GPUMEM_BIN"/gpumem-*; do
	basename "$b" | sed 's/^gpumem-//'
done | sort > built.txt
cmp tree.txt built.txt || die "commands built are not the tree's: $(diff tree.txt built.txt)"
# gpumem.1: every command in SEE ALSO and in the description, no other.
sed -n 's/^\.Xr gpumem-\([a-z-]*\) 1.*/\1/p' "$top"/gpumem.1 | sort -u > man.txt
cmp tree.txt man.txt || die "gpumem.1 names other commands: $(diff tree.txt man.txt)"
sed -n 's/^\.Pq Xr gpumem-\([a-z-]*\) 1.*/\1/p' "$top"/gpumem.1 | sort -u > desc.txt
cmp tree.txt desc.txt || die "gpumem.1's description names other commands: $(diff tree.txt desc.txt)"
# Each man page is its command's.
while read -r c; do
	m=
	for d in formats analyze reports; do
		[ -f "$top/$d/$c.1" ] && m=$top/$d/$c.1
	done
	[ -n "$m" ] || die "$c: no man page"
	grep -q "^\.Nm gpumem-$c$" $m || die "$m: not gpumem-$c's"
	nd=$(sed -n 's/^\.Nd //p' $m)
	[ -n "$nd" ] || die "$m: no .Nd"
	# gpumem --help lists it, with that description.
	echo "  $(printf '%-7s' $c) $nd" >> want.txt
done < tree.txt
gpumem --help > help.txt
grep '^  [a-z]' help.txt | sort > got.txt
sort want.txt > want.sorted
cmp want.sorted got.txt || die "gpumem --help: $(diff want.sorted got.txt)"
# In pipeline order: formats, then analyze, then reports.
expect_eq "the first command listed" "$(grep '^  [a-z]' help.txt | head -n 1 | awk '{print $1}')" pcap
expect_eq "the last command listed" "$(grep '^  [a-z]' help.txt | tail -n 1 | awk '{print $1}')" report
