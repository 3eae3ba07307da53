# Every global the internal library defines carries its module's prefix
# (eng_judge, tab_out, page_html, synth_run...): a bare name such as
# judge, out or status_names is one any other module may take too, and
# two modules' status_names once failed the link; a name such as
# task_name or gpu_label says no module at all.  The rule, checked on the
# build's libgpumem.a with nm: the first word of a global defined symbol
# (up to its first '_', the whole name when it has none) and a name of
# its module share their beginning, the shorter one (of 3 letters at
# least) all of it: eng_ for engclock.o, recw_ for rec.o, gtime_ for
# gtparse.o through gtime.h.  The names of its module are its file's and
# those of the headers of its folder that file includes, directly or
# through one another (the header a module of several files shares:
# engstate.h, gatesint.h, source.h...).  Or it is one of the project's
# own vocabulary below.  DEVELOPERS.md (Style) states the rule.
. "$TESTS/lib.sh"
build=${TOOLS%/tools}
lib=$build/libgpumem.a
tree=$TESTS/..
[ -f "$lib" ] || skip "no $lib in this build"
command -v nm > /dev/null || skip "no nm (binutils)"
# The allowlist, with the reason each is bare:
#   die msg vmsg warnmsg note progname verbosity exit_worst: msg.h's
#     messages and exit codes, the words every command uses for what it
#     says and how it ends (formats/core/msg.h, DEVELOPERS.md);
#   emalloc ecalloc erealloc ereallocarray estrdup estrndup egrow
#     ering_grow: the allocators that die (alloc.h), named after what
#     they wrap.
allow='die msg vmsg warnmsg note progname verbosity exit_worst
emalloc ecalloc erealloc ereallocarray estrdup estrndup egrow ering_grow'
nm -g --defined-only "$lib" > syms || die "nm $lib failed"
# "FILE.o:" lines, then "VALUE TYPE NAME" whose type is upper case
# (global): "FILE NAME" a line.
awk '/:$/ { f = $1; sub(/\.o:$/, "", f); next }
	NF == 3 && $2 ~ /^[A-Z]$/ { print f, $3 }' syms | sort -u > names
n=$(wc -l < names)
[ "$n" -ge 300 ] || die "only $n global symbols read from $lib"
# "FILE MODULE-NAME..." a line: the file, then the headers of its folder
# it includes, directly or through them.
cut -d' ' -f1 names | sort -u | while read -r o; do
	src=$(find "$tree/formats" "$tree/analyze" "$tree/reports" \
	    -mindepth 2 -name "$o.c")
	[ -f "$src" ] || die "$o.o: no $o.c in a library folder"
	dir=${src%/*} mod=" $o " todo=$src
	while [ -n "$todo" ]; do
		set -- $todo
		f=$1; shift; todo=$*
		for h in $(sed -n 's/^#include "\(.*\)\.h"$/\1/p' "$f"); do
			case "$mod" in *" $h "*) continue ;; esac
			[ -f "$dir/$h.h" ] || continue
			mod="$mod$h "
			todo="$todo $dir/$h.h"
		done
	done
	echo "$o$mod"
done > modules
got=$(awk -v allow="$(echo $allow)" '
function shared(p, m,   s, l) {
	if (length(p) <= length(m)) { s = p; l = m } else { s = m; l = p }
	return length(s) >= 3 && substr(l, 1, length(s)) == s
}
BEGIN { n = split(allow, a, " "); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
NR == FNR { mod[$1] = $0; next }
{
	f = $1; s = $2; p = s
	sub(/_.*/, "", p)
	# The compiler'"'"'s own (ASan'"'"'s __odr_asan.NAME beside each NAME).
	if (s in ok || s ~ /^__/)
		next
	n = split(mod[f], m, " ")
	for (i = 2; i <= n; i++)
		if (shared(p, m[i]))
			next
	print s " (" f ".o): a global of libgpumem.a without its " \
	    "module'"'"'s prefix (" substr(mod[f], length(f) + 2) ")"
}' modules names)
expect_eq "globals without their module's prefix" "$got" ""
