# The report renders in a real browser: headless Chromium takes a
# screenshot that is not blank, and the page it built holds the charts
# (svg elements) and the table.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "the browser does not depend on the build variant"
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome) ||
	skip "chromium is not installed"
gpumem-synth -s demo > demo.csv
gpumem-report -q -o report.html demo.csv || die "exit $?"
run() {
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
	    --no-first-run --disable-background-networking --disable-component-update \
	    --disable-sync --user-data-dir="$(mktemp -d "$TMP/chrome.XXXXXX")" "$@" \
	    "file://$PWD/report.html" 2> browser.err
}
run --screenshot="$PWD/shot.png" --window-size=1200,2000 > /dev/null ||
	die "screenshot: exit $?: $(tail -n 3 browser.err)"
set -- $("$TOOLS/pnginfo" shot.png) || die "shot.png is not a valid PNG"
expect_eq "screenshot size" "$1x$2" 1200x2000
[ "$3" -gt 50 ] || die "the screenshot is blank ($3 colours)"
run --dump-dom > dom.html || die "dump-dom: exit $?"
expect_eq "svg elements" "$(grep -o '<svg' dom.html | wc -l | tr -d ' ')" 4
grep -q '<table class="sortable" id="tasks">' dom.html || die "no table"
grep -q 'GPU memory report' dom.html || die "no title"
exit 0
