# A PNG is a real PNG (signature, CRCs, decodable) of the size asked for,
# and not blank; without --size, 1200 wide and 300 pixels a GPU.
. "$TESTS/lib.sh"
gpumem-synth -s leak > leak.csv
gpumem-plot --size 800x500 -o leak.png leak.csv || die "exit $?"
set -- $("$TOOLS/pnginfo" leak.png) || die "leak.png is not a valid PNG"
expect_eq "size" "$1x$2" 800x500
[ "$3" -gt 10 ] || die "leak.png has $3 colours: blank?"
gpumem-synth -s demo > demo.csv
gpumem-plot -T png demo.csv > demo.png || die "exit $?"
set -- $("$TOOLS/pnginfo" demo.png) || die "demo.png is not a valid PNG"
expect_eq "default size of two GPUs" "$1x$2" 1200x660
# A PDF is a PDF.
gpumem-plot -o demo.pdf demo.csv || die "pdf: exit $?"
expect_eq "pdf magic" "$(head -c 5 demo.pdf)" "%PDF-"
# -o picks by the name; an unknown name is trouble, and nothing is left.
rc=0; gpumem-plot -o demo.jpg demo.csv 2> err.txt || rc=$?
expect_eq "unknown extension: exit" $rc 2
expect_eq "message" "$(cat err.txt)" "gpumem-plot: demo.jpg: cannot tell the chart format from the name: use .png, .svg or .pdf, or --terminal"
! [ -e demo.jpg ] || die "demo.jpg was written"
! ls -a | grep -q '\.tmp' || die "a temporary file was left"
exit 0
