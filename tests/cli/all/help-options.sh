# --help tells the truth about the options: every long option a tool's man
# page documents is accepted by the tool and listed by its --help, and
# every option --help lists is accepted.  "Accepted" is what the binary
# does, not what any text says: getopt_long answers "unrecognized option"
# for a name the tool does not know, and any other answer (a bad value,
# no argument allowed, a missing input) means it knows it.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] ||
	skip "what options a tool takes does not depend on the build variant (a run under the sanitizers takes three minutes)"
top=$TESTS/..
accepted() {	# accepted BINARY NAME
	# An unknown option after it: the tool stops there, runs nothing.
	rc=0
	"$1" "--$2=x" --no-such-option > /dev/null 2> acc.err < /dev/null || rc=$?
	expect_eq "$1 --$2=x --no-such-option: exit" $rc 2
	! grep -q "unrecognized option '--$2=x'" acc.err
}
n=0
for b in "$GPUMEM_BIN"/gpumem-*; do
	name=$(basename "$b")
	verb=${name#gpumem-}
	man=
	for d in formats analyze reports; do
		[ -f "$top/$d/$verb.1" ] && man=$top/$d/$verb.1
	done
	[ -n "$man" ] || die "$name: no man page"
	"$b" --help > help.txt
	grep -o -- '--[a-z][a-z-]*' help.txt | sed 's/^--//' | sort -u > help.opts
	# The man page's options: each long option ("Fl -name") of its
	# SYNOPSIS (.Op), of its option list (.It) and of a list of them
	# (the read options taken too), not those of other tools named in
	# the text.
	grep -e '^\.Op .*Fl -' -e '^\.It Fl' -e '^\.Fl -.* Fl -' "$man" |
	    grep -o 'Fl -[a-z][a-z-]*' | sed 's/^Fl -//' | sort -u > man.opts
	while read -r o; do
		accepted "$b" "$o" || die "$name: --$o is in the man page, the tool rejects it: $(cat acc.err)"
		grep -qx -- "$o" help.opts || die "$name: --$o (accepted, in the man page) is not in --help"
	done < man.opts
	[ "$(wc -l < man.opts)" -ge 4 ] || die "$man: only $(cat man.opts)"
	while read -r o; do
		accepted "$b" "$o" || die "$name: --help lists --$o, the tool rejects it: $(cat acc.err)"
	done < help.opts
	cp help.opts "$verb.help"
	cp man.opts "$verb.man"
	cat man.opts help.opts >> every.opts
	# And the check itself can say no.
	! accepted "$b" no-such-opt || die "$name: accepts --no-such-opt"
	n=$((n + 1))
done
[ $n -ge 11 ] || die "only $n tools"
# Any long option of any tool that a tool accepts is in its --help and
# its man page: none is taken silently.
sort -u every.opts > all.opts
for b in "$GPUMEM_BIN"/gpumem-*; do
	name=$(basename "$b")
	verb=${name#gpumem-}
	while read -r o; do
		# Listed (or the start of one listed: getopt_long takes
		# abbreviations).
		grep -q -- "^$o" "$verb.man" && continue
		accepted "$b" "$o" || continue
		die "$name: accepts --$o, its man page does not list it"
	done < all.opts
done
