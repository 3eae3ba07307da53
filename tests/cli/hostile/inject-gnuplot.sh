# Nothing from the input runs as a gnuplot command, and gnuplot still
# draws its chart, whatever a host, a process name or a title holds: a
# line break (a new command after it), a carriage return, quotes of both
# kinds, a leading quote (gnuplot cannot double one), CR LF, backslashes
# (data blocks take "\n" escapes), backquotes (command substitution), @ macros,
# a line "EOD" (the end of a data block), ESC and OSC sequences, bytes
# that are not UTF-8, HTML.  Every payload tries to create a file named
# pwned.  The record stream is made with awk, as a user would: GPU 1 of
# a known run, once per payload with the payload as its host, once with
# it as every process name; that goes into plot, gantt (SVG, PNG),
# usage | plot; report gets all payloads in one host and one name (it
# runs gnuplot twice a GPU); --title all of them in one; a dcgm-exporter
# scrape's Hostname label (its \n escape decoded) goes into plot.
. "$TESTS/lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot is not installed"
command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"

# payload KEY: the hostile string of KEY (printf's escapes: \n, \033...).
payload() {
	case $1 in
	nl) printf 'a\nsystem("touch pwned") #' ;;
	crlf) printf 'c\r\nsystem("touch pwned") #' ;;
	lead) printf "'lead" ;;
	sq) printf "x'\nsystem('touch pwned') #'" ;;
	dq) printf 'x"\nsystem("touch pwned") #"' ;;
	bs) printf 'b\\"x\\nx\\101 \\' ;;
	bq) printf '`touch pwned`\n`touch pwned`' ;;
	macro) printf 'm = "`touch pwned`"\n@m' ;;
	eod) printf 'x\nEOD\nsystem("touch pwned")\n$d << EOD' ;;
	esc) printf 'ev\033[2Jil\n!touch pwned' ;;
	osc) printf 'ev\033]0;title\007il\n!touch pwned' ;;
	utf8) printf 'bad\377\376\300\n!touch pwned' ;;
	html) printf '<script>alert(1)</script>\n!touch pwned' ;;
	esac
}
keys="nl crlf lead sq dq bs bq macro eod esc osc utf8 html"

# The payload in p.txt as one quoted CSV field.
csvq() {
	printf '"'
	sed 's/"/""/g' p.txt | awk 'NR > 1 { printf "\n" } { printf "%s", $0 }'
	printf '"'
}

# ran WHAT: nothing ran, no temporary file was left.
ran() {
	[ -e pwned ] && die "$1: a command from the input ran"
	ls -a | grep -q '\.tmp' && die "$1: a temporary file was left"
	return 0
}

svg_ok() {
	xmllint --noout "$1" 2>/dev/null || die "$2: $1 is not well-formed SVG"
}

gpumem-synth -s demo > demo.csv
for k in $keys; do
	payload $k > p.txt
	export "P_$k=$(csvq)"
	payload $k >> title.txt
done
# Row by row, so that times never go back: each payload as a host, then
# as the process names of a host named after it.
KEYS=$keys awk -F, -v OFS=, 'NR == 1 { print; next } $3 != 1 { next } {
	n = split(ENVIRON["KEYS"], k, " ")
	for (i = 1; i <= n; i++) {
		f = ENVIRON["P_" k[i]]
		$2 = f
		print
		$2 = k[i]
		if ($8 != "") { name = $8; $8 = f }
		print
		if ($8 != "") $8 = name
	}
}' demo.csv > all.csv
gpumem-plot -q -o all.svg all.csv || die "plot: exit $?"
ran "plot"
svg_ok all.svg "plot"
gpumem-gantt -q --max-rows 100 -o gantt.svg all.csv || die "gantt: exit $?"
ran "gantt"
svg_ok gantt.svg "gantt"
# Every task has its bar: 2 a copy.
n=$(xmllint --xpath "count(//*[local-name()='g'][starts-with(@id,'gnuplot_plot_')][.//*[local-name()='text'][normalize-space(.)='alive']]//*[local-name()='polygon'])" gantt.svg)
set -- $keys
expect_eq "gantt: bars" $((n - 1)) $(($# * 4))
gpumem-gantt -q --max-rows 100 -o gantt.png all.csv || die "gantt png: exit $?"
"$TOOLS/pnginfo" gantt.png >/dev/null || die "gantt.png is no PNG"
gpumem-plot -q -o all.png all.csv || die "plot png: exit $?"
"$TOOLS/pnginfo" all.png >/dev/null || die "all.png is no PNG"
ran "png"
gpumem-usage -q all.csv > usage.csv || die "usage: exit $?"
gpumem-plot -o usage.svg usage.csv 2> err.txt || die "usage | plot: exit $?"
ran "usage | plot"
svg_ok usage.svg "usage | plot"
[ -s err.txt ] && die "usage | plot: $(head -n 1 err.txt)"
# A panel a host: the usage curve lost no host to a line break.
set -- $keys
expect_eq "usage | plot: panels" \
    "$(gpumem-plot --script usage.csv | grep -c '^set title')" $(($# * 2))
# A name with backslash escapes is drawn as it is, not decoded.
case " $keys " in *" bs "*)
	grep -qF 'x\nx\101' gantt.svg ||
	    die "gantt: the name b\\\"x\\nx\\101 was not drawn as it is"
esac

# The report: every payload in one host and in one name.
f=$(cp title.txt p.txt && csvq)
{
	cat demo.csv
	f=$f awk -F, -v OFS=, 'NR > 1 && $3 == 1 { $2 = ENVIRON["f"]
	    if ($8 != "") $8 = ENVIRON["f"]; print }' demo.csv
} > report.csv
gpumem-report -q -o clean.html demo.csv || die "clean report: exit $?"
gpumem-report -q -o report.html report.csv || die "report: exit $?"
ran "report"
expect_eq "report: <script" "$(grep -o -i '<script' report.html | wc -l)" \
    "$(grep -o -i '<script' clean.html | wc -l)"

# --title: every payload at once, a leading quote first.
t=$(cat title.txt)
gpumem-plot -q --title "$t" -o title.svg demo.csv || die "plot --title: exit $?"
ran "plot --title"
svg_ok title.svg "plot --title"
gpumem-gantt -q --title "$t" -o gtitle.svg demo.csv || die "gantt --title: exit $?"
ran "gantt --title"
svg_ok gtitle.svg "gantt --title"

# A dcgm-exporter scrape: the Hostname label, its \n escape decoded by
# the reader, names one of two GPUs.
for t in 0 1 2 3; do
	s=$((1767225600 + t))
	for h in 'x\nsystem(\"touch pwned\") #' "b"; do
		printf 'DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-%s",Hostname="%s"} %d %d000\n' \
		    "$h" "$h" $((1000 + t * 500)) $s
		printf 'DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-%s",Hostname="%s"} %d %d000\n' \
		    "$h" "$h" $((15000 - t * 500)) $s
	done
done > dcgm.prom
gpumem-plot -q -o dcgm.svg dcgm.prom || die "dcgm: plot: exit $?"
ran "dcgm: plot"
svg_ok dcgm.svg "dcgm: plot"
exit 0
