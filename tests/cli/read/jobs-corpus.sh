# read -j N on the real logs of the corpus, every family at once (tables,
# -q -x documents, pmon, dmon, exporter scrapes, capture bundles,
# query-gpu CSV in its many forms): the bytes and messages of -j 1.
. "$TESTS/lib.sh"
need_corpus real
ln -s "$CORPUS/real" real
set --
for d in real/*/; do
	for f in "$d"*; do
		case $f in *.md) continue ;; esac
		set -- "$@" "$f"
	done
done
[ $# -ge 20 ] || die "only $# corpus files"
same_jobs gpumem-read --tz UTC "$@" > /dev/null
echo "$# inputs: $(wc -l < j1.out) lines, exit status the same"
same_jobs gpumem-read --tz UTC --host-from-file "$@" > /dev/null
same_jobs gpumem-tasks --tz UTC --host-from-file "$@" > /dev/null
