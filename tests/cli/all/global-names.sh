# Every global the internal library defines carries its module's prefix
# (eng_judge, tab_out, page_html, synth_run...): a bare name such as
# judge, out or status_names is one any other module may take too, and
# two modules' status_names once failed the link.  The rule, checked on
# the build's libgpumem.a with nm: a global defined symbol has a '_'
# (module_what) or is one of the project's own vocabulary below.
. "$TESTS/lib.sh"
build=${TOOLS%/tools}
lib=$build/libgpumem.a
[ -f "$lib" ] || skip "no $lib in this build"
command -v nm > /dev/null || skip "no nm (binutils)"
# The allowlist, with the reason each is bare:
#   die msg vmsg warnmsg note progname verbosity: msg.h's messages, the
#     words every command uses for what it says (formats/core/msg.h);
#   emalloc ecalloc erealloc ereallocarray estrdup estrndup egrow: the
#     allocators that die (alloc.h), named after what they wrap;
#   colguess: the one function of the module colguess, named after it.
allow='die msg vmsg warnmsg note progname verbosity
emalloc ecalloc erealloc ereallocarray estrdup estrndup egrow
colguess'
nm -g --defined-only "$lib" > syms || die "nm $lib failed"
# The lines "VALUE TYPE NAME" whose type is upper case (global).
awk 'NF == 3 && $2 ~ /^[A-Z]$/ { print $3 }' syms | sort -u > names
n=$(wc -l < names)
[ "$n" -ge 300 ] || die "only $n global symbols read from $lib"
got=$(grep -v _ names | while read -r s; do
	case " $(echo $allow) " in
	*" $s "*) ;;
	*) echo "$s: a global of libgpumem.a without its module's prefix" ;;
	esac
done)
expect_eq "bare globals" "$got" ""
