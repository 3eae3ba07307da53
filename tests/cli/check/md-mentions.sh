# check's Markdown goes into CI comments (a pull request's), where GitHub
# turns "@name" into a mention that notifies that user or team, and bare
# URLs ("https://", "www.") and e-mail addresses into links, in the text
# Markdown has become: a backslash escape is gone by then.  Process and
# host names are whatever the telemetry says: each such place gets a ZERO
# WIDTH SPACE (U+200B; sed's l shows it as \342\200\213), which is still
# in that text and matches none of them.  A task that leaks, named with
# all of them, on a host named after a team.
. "$TESTS/lib.sh"
recording '
	for (s = 0; s < 12; s++) {
		dev(s, s >= 2 ? 1024 : 0)
		if (s >= 2 && s <= 8)
			proc(s, 77, s < 8 ? 1024 : 0, "@octocat see https://evil.example/x www.evil.example a@b.io")
	}' | sed '2,$s/^\([0-9]*\),,/\1,@org\/team,/' > leak.csv
rc=0; gpumem-check -q --markdown - leak.csv > summary.md 2> /dev/null || rc=$?
echo "exit $rc"
sed -n l summary.md
# Nowhere an "@", "://" or "www." GitHub would take.
zw=$(printf '\342\200\213')
sed "s/@$zw//g" summary.md > bare.md
! grep -n -e '@' -e '://' -e 'www\.' bare.md ||
    die "a mention or a link left in the Markdown"
