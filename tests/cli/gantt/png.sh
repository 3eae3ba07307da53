# PNG and PDF Gantt charts, from a task table on standard input; the size
# is the one asked for, and the default grows with the rows.
. "$TESTS/lib.sh"
gpumem-synth -s demo | gpumem-tasks -q > tasks.csv
gpumem-gantt --size 900x300 -o g.png < tasks.csv || die "exit $?"
set -- $("$TOOLS/pnginfo" g.png) || die "g.png is not a valid PNG"
expect_eq "size" "$1x$2" 900x300
[ "$3" -gt 10 ] || die "g.png has $3 colours: blank?"
gpumem-gantt -T png tasks.csv > d.png || die "exit $?"
set -- $("$TOOLS/pnginfo" d.png) || die "d.png is not a valid PNG"
expect_eq "default size of 4 rows" "$1x$2" 1200x260
gzip -c tasks.csv | gpumem-gantt -o g.pdf || die "pdf: exit $?"
expect_eq "pdf magic" "$(head -c 5 g.pdf)" "%PDF-"
exit 0
