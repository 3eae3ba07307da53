# make install into a DESTDIR puts every program, man page and completion
# where the system looks, and make uninstall takes all of it back.
. "$TESTS/lib.sh"
top=$TESTS/..
command -v make > /dev/null || skip "make is absent"
dest=$PWD/root
scratch_make install DESTDIR="$dest" PREFIX=/usr
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
# The node recorder, and its unit running it from where it landed.
[ -x "$dest/usr/share/gpumem/systemd/gpumem-recorder" ] ||
    die "systemd/gpumem-recorder not installed executable"
grep -qx "ExecStart=/usr/share/gpumem/systemd/gpumem-recorder" \
    "$dest/usr/share/gpumem/systemd/gpumem-recorder.service" ||
    die "the unit's ExecStart: $(grep ExecStart "$dest/usr/share/gpumem/systemd/gpumem-recorder.service")"
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
scratch_make uninstall DESTDIR="$dest" PREFIX=/usr
left=$(find "$dest" -type f -o -type l)
expect_eq "left after uninstall" "$left" ""
