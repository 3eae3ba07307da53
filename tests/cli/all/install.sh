# make install into a DESTDIR puts every program, man page and completion
# where the system looks, and make uninstall takes all of it back.
. "$TESTS/lib.sh"
top=$TESTS/..
command -v make > /dev/null || skip "make is absent"
dest=$PWD/root
# Install the programs already built: copy them into a scratch tree so that
# make has nothing to build and the source tree is not written to.
mkdir src
cp -R "$top/Makefile" "$top/gpumem.1" "$top/README.md" "$top/docs" \
    "$top/contrib" "$top/formats" "$top/analyze" "$top/reports" src/
mkdir -p src/bin
cp "$GPUMEM_BIN"/gpumem "$GPUMEM_BIN"/gpumem-* src/bin/
old=
for b in src/bin/*; do
	old="$old -o bin/${b##*/}"
done
make -s -C src $old install BIN=bin DESTDIR="$dest" PREFIX=/usr \
    > make.out 2>&1 || { cat make.out >&2; die "make install failed"; }
for b in "$GPUMEM_BIN"/gpumem-*; do
	v=${b##*/gpumem-}
	[ -x "$dest/usr/bin/gpumem-$v" ] || die "gpumem-$v not installed"
	[ -f "$dest/usr/share/man/man1/gpumem-$v.1" ] || die "gpumem-$v.1 not installed"
	[ -L "$dest/usr/share/bash-completion/completions/gpumem-$v" ] ||
	    die "no bash completion under gpumem-$v"
done
[ -x "$dest/usr/bin/gpumem" ] || die "gpumem not installed"
[ -f "$dest/usr/share/bash-completion/completions/gpumem" ] || die "no bash completion"
[ -f "$dest/usr/share/zsh/vendor-completions/_gpumem" ] || die "no zsh completion"
[ -f "$dest/usr/share/fish/vendor_completions.d/gpumem.fish" ] || die "no fish completion"
[ -f "$dest/usr/share/gpumem/wireshark/gmem.lua" ] || die "no dissector"
[ -f "$dest/usr/share/doc/gpumem/README.md" ] || die "no README"
[ -f "$dest/usr/share/doc/gpumem/analysis.md" ] || die "no docs"
# The fleet recipes, whole and executable, run from where they land: the
# Slurm driver finds its two batch scripts beside itself.
for s in parallel/gpumem-fleet slurm/gpumem-slurm slurm/gpumem-epilog \
    slurm/gpumem-array.sbatch slurm/gpumem-reduce.sbatch; do
	[ -x "$dest/usr/share/gpumem/$s" ] || die "$s not installed executable"
	cmp "$top/contrib/$s" "$dest/usr/share/gpumem/$s" > /dev/null ||
	    die "$s installed differs"
done
"$dest/usr/share/gpumem/parallel/gpumem-fleet" --help | sed -n 1p > fleet.help
expect_eq "installed gpumem-fleet --help" "$(cat fleet.help)" \
    "gpumem-fleet: analyse a fleet's logs with GNU parallel, then reduce."
mkdir fakebin
printf '#!/bin/sh\necho "$@" >> "%s/sbatch.args"; echo 7\n' "$PWD" > fakebin/sbatch
chmod +x fakebin/sbatch
printf 'node1.csv\n' > nodes.list
PATH=$PWD/fakebin:$PATH "$dest/usr/share/gpumem/slurm/gpumem-slurm" -o out \
    nodes.list > ids || die "installed gpumem-slurm failed"
grep -q "$dest/usr/share/gpumem/slurm/gpumem-array.sbatch" sbatch.args ||
    die "installed gpumem-slurm does not submit its own array script: $(cat sbatch.args)"
# The installed completion completes the installed programs.
out=$(PATH=$dest/usr/bin:$PATH bash -c '. "$1"; COMP_WORDS=(gpumem-tasks --tol);
    COMP_CWORD=1; _gpumem; echo "${COMPREPLY[@]}"' sh \
    "$dest/usr/share/bash-completion/completions/gpumem-tasks")
expect_eq "installed completion" "$out" "--tolerance"
make -s -C src uninstall BIN=bin DESTDIR="$dest" PREFIX=/usr > make.out 2>&1 ||
    { cat make.out >&2; die "make uninstall failed"; }
left=$(find "$dest" -type f -o -type l)
expect_eq "left after uninstall" "$left" ""
