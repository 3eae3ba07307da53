# -q and -v together: the last one wins, in every verb (the skeleton,
# cmd.c, takes both), as in other tools: "-q -v" says what -v says, "-v
# -q" what -q says, and bundled "-qv" / "-vq" the same.
. "$TESTS/lib.sh"
gpumem-synth -s leak > leak.csv
gpumem-tasks -q leak.csv > t.csv
# VERB ARGS: stderr of each order, compared with -q's and -v's alone.
both() {
	verb=$1
	shift
	gpumem-$verb -q "$@" > /dev/null 2> q.err || :
	gpumem-$verb -v "$@" > /dev/null 2> v.err || :
	[ -s v.err ] || die "$verb -v said nothing"
	for o in "-v -q" -vq; do
		gpumem-$verb $o "$@" > /dev/null 2> got || :
		cmp -s got q.err || die "$verb $o: not what -q says"
	done
	for o in "-q -v" -qv; do
		gpumem-$verb $o "$@" > /dev/null 2> got || :
		cmp -s got v.err || die "$verb $o: not what -v says"
	done
	echo "$verb: -q $(wc -l < q.err) lines, -v $(wc -l < v.err) lines"
}
both read leak.csv
both tasks leak.csv
both usage leak.csv
both check leak.csv
