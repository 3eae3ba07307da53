# The Debian package: dpkg-buildpackage builds it from a copy of the tree,
# lintian finds no error or warning, dpkg installs it (into a root of the
# case's own, so the machine is not changed) and the demo's main job runs
# from the installed programs with the installed man pages, completion and
# dissector in their Debian places.  Built once, with the normal variant.
. "$TESTS/lib.sh"
top=$TESTS/..
[ "$VARIANT" = normal ] || skip "the package is built with the normal variant"
for c in dpkg-buildpackage dh dpkg-deb; do
	command -v $c > /dev/null || skip "$c is absent (devscripts, debhelper)"
done
# The source tree as a user's clone has it: no build products.
mkdir src
(cd "$top" && { git ls-files -co --exclude-standard 2>/dev/null ||
    find . -path ./build -prune -o -path ./bin -prune -o -type f -print; } |
    grep -v '^\./\(bin\|build\)/\|^\(bin\|build\)/' | tar -cf - -T -) |
    tar -xf - -C src
(cd src && DEB_BUILD_OPTIONS=parallel=2 dpkg-buildpackage -us -uc -b \
    > ../build.log 2>&1) || { tail -n 30 build.log >&2; die "dpkg-buildpackage failed"; }
deb=$(ls gpumem_*_*.deb)
if command -v lintian > /dev/null; then
	lintian --fail-on error,warning "$deb" > lintian.txt 2>&1 ||
	    die "lintian: $(grep -v 'root privileges' lintian.txt)"
fi
# dpkg -i into our own root: an empty dpkg database of its own.
root=$PWD/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: > "$root/var/lib/dpkg/status"
: > "$root/var/lib/dpkg/available"
dpkg --root="$root" --force-not-root --force-depends --force-script-chrootless \
    --log=/dev/null -i "$deb" > dpkg.log 2>&1 || { cat dpkg.log >&2; die "dpkg -i failed"; }
dpkg --root="$root" -s gpumem | grep -q '^Status: install ok installed$' ||
    die "dpkg: gpumem is not installed"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
for f in usr/bin/gpumem usr/bin/gpumem-tasks usr/share/man/man1/gpumem.1.gz \
    usr/share/man/man1/gpumem-read.1.gz usr/share/doc/gpumem/copyright \
    usr/share/doc/gpumem/README.md.gz usr/share/bash-completion/completions/gpumem \
    usr/share/zsh/vendor-completions/_gpumem \
    usr/share/fish/vendor_completions.d/gpumem.fish \
    "usr/lib/$multiarch/wireshark/plugins/gmem.lua"; do
	[ -e "$root/$f" ] || die "not installed: /$f"
done
# The main job from the installed programs: a known leak is found.
PATH=$root/usr/bin
export PATH
gpumem synth -s leak -t truth.csv > rec.csv
gpumem tasks rec.csv > tasks.csv 2> tasks.err
/usr/bin/cut -d , -f 2,3,12 tasks.csv | /usr/bin/sort > got.txt
/usr/bin/cut -d , -f 2,3,12 truth.csv | /usr/bin/sort > want.txt
/usr/bin/cmp -s got.txt want.txt || die "tasks differ from the truth: $(/usr/bin/diff want.txt got.txt)"
/usr/bin/grep -q ',leaked$' got.txt || die "no leak found"
expect_eq "installed version" "$(gpumem --version)" \
    "gpumem (gpumem) $(/usr/bin/dpkg-parsechangelog -l "$top/debian/changelog" -S Version)"
