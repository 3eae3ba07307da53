# Nothing from the input reaches a terminal raw: process names, hosts,
# declared task names (YAML) and file names holding ESC sequences (clear
# the screen), OSC sequences (set the window title, ended by BEL), the C1
# CSI (U+009B), line breaks and bytes that are not UTF-8 go through
# check's verdict lines, tasks -t text and -t md, gantt --text and the
# messages of every tool as spaces or '?': no ESC, BEL or C1 byte, valid
# UTF-8, and one table row a task.  Markdown cells escape what Markdown
# would take as markup.  The record stream is made with awk from a known
# run (demo: 4 tasks on 2 GPUs, one leaked).
. "$TESTS/lib.sh"

# payload KEY: printf's escapes of the hostile string of KEY.
payload() {
	case $1 in
	esc) printf 'ev\033[2Jil' ;;
	osc) printf 'ev\033]0;pwned\007il' ;;
	c1) printf 'ev\302\233' ;;
	nl) printf 'line\nbreak' ;;
	cr) printf 'over\rwritten' ;;
	utf8) printf 'bad\377\376\300' ;;
	md) printf '| *b* _i_ `c` [l](http://x) <b> &amp; $x$ # ~s~ \\' ;;
	esac
}
keys="esc osc c1 nl cr utf8 md"

# clean FILE WHAT: no control character but tab and line feed (no ESC,
# BEL, CR), no C1 character, valid UTF-8.
clean() {
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$1" ||
	    LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$1"; then
		die "$2: an escape sequence reaches the terminal"
	fi
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 ||
	    die "$2: not valid UTF-8"
}

# The payload in p.txt as one quoted CSV field.
csvq() {
	printf '"'
	sed 's/"/""/g' p.txt | awk 'NR > 1 { printf "\n" } { printf "%s", $0 }'
	printf '"'
}

# Markdown rows: every line a row of 11 cells (10 columns, no host), or
# 12 with hosts; escaped pipes and backslashes do not count.
md_rows() {
	sed 's/\\\\//g; s/\\|//g' "$1" |
	    awk -F'|' -v want=$2 -v w="$3" 'NF != want + 1 {
		print "FAILED: " w ": row " NR " has " NF - 1 " pipes" > "/dev/stderr"
		bad = 1 } END { exit bad }' || exit 1
}

gpumem-synth -s demo > demo.csv
for k in $keys; do
	payload $k > p.txt
	f=$(csvq)
	f=$f awk -F, -v OFS=, 'NR > 1 && $8 != "" { $8 = ENVIRON["f"] }
	    { print }' demo.csv > name.csv
	f=$f awk -F, -v OFS=, 'NR > 1 { $2 = ENVIRON["f"] } { print }' \
	    demo.csv > host.csv
	for in in name host; do
		w="$k $in"
		rc=0
		gpumem-check $in.csv 2> check.txt || rc=$?
		expect_eq "$w: check: exit" $rc 1
		clean check.txt "$w: check"
		grep -q 'leaked 11264 MiB' check.txt || die "$w: check: no failure"
		gpumem-tasks -q -t text $in.csv > text.txt || die "$w: text: exit $?"
		clean text.txt "$w: tasks -t text"
		expect_eq "$w: text lines" "$(wc -l < text.txt)" 6
		gpumem-tasks -q -t md $in.csv > md.txt || die "$w: md: exit $?"
		clean md.txt "$w: tasks -t md"
		expect_eq "$w: md lines" "$(wc -l < md.txt)" 6
		cols=10
		[ $in = host ] && cols=11
		md_rows md.txt $((cols + 1)) "$w: md"
		gpumem-gantt -q --text --width 100 $in.csv > gantt.txt ||
		    die "$w: gantt --text: exit $?"
		clean gantt.txt "$w: gantt --text"
		expect_eq "$w: gantt lines" "$(wc -l < gantt.txt)" 7
	done
	# A file name: the messages name it.
	t=$(cat p.txt)
	rc=0
	gpumem-tasks "$t.csv" > /dev/null 2> msg.txt || rc=$?
	expect_eq "$k file: exit" $rc 2
	clean msg.txt "$k file name: message"
	# "cannot open" and the summary, nothing more.
	expect_eq "$k file: message lines" "$(grep -c '^gpumem-tasks: ' msg.txt)" 2
	expect_eq "$k file: lines" "$(wc -l < msg.txt)" 2
done

# Markdown: every character Markdown would take as markup is escaped.
payload md > p.txt
f=$(csvq)
f=$f awk -F, -v OFS=, 'NR > 1 && $8 != "" { $8 = ENVIRON["f"] } { print }' \
    demo.csv > name.csv
gpumem-tasks -q -t md name.csv | sed -n 3p |
    sed 's/^| [0-9]* | [0-9]* | //; s/ | 2026-.*//' > cell.txt
# A bare URL gets a ZERO WIDTH SPACE between its slashes: GitHub links
# none there (check/md-mentions.sh).
zw=$(printf '\342\200\213')
expect_eq "md cell" "$(cat cell.txt)" \
    '\| \*b\* \_i\_ \`c\` \[l\](http:/'"$zw"'/x) \<b\> \&amp; \$x\$ \# \~s\~ \\'

# A declared task's name from YAML (its escapes decoded), on a device-only
# log: a dcgm-exporter scrape.
cat > tasks.yaml <<'EOF'
- name: "ev\e[2Jil\nnext \e]0;pwned\a \x9b"
  gpu: 0
  start: 2026-01-01T00:00:01Z
  end: 2026-01-01T00:00:02Z
EOF
for t in 0 1 2 3 4 5; do
	s=$((1767225600 + t))
	u=$((t < 3 ? 1000 + t * 500 : 2000))
	printf 'DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-1",Hostname="h"} %d %d000\n' $u $s
	printf 'DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-1",Hostname="h"} %d %d000\n' $((15000 - u)) $s
done > dcgm.prom
gpumem-tasks -q -t text --tasks tasks.yaml dcgm.prom > text.txt ||
    die "yaml: text: exit $?"
clean text.txt "yaml: tasks -t text"
expect_eq "yaml: text lines" "$(wc -l < text.txt)" 3
gpumem-tasks -q -t md --tasks tasks.yaml dcgm.prom > md.txt ||
    die "yaml: md: exit $?"
clean md.txt "yaml: tasks -t md"
gpumem-check --tasks tasks.yaml dcgm.prom 2> check.txt || :
clean check.txt "yaml: check"
gpumem-gantt -q --text --tasks tasks.yaml dcgm.prom > gantt.txt ||
    die "yaml: gantt --text: exit $?"
clean gantt.txt "yaml: gantt --text"

# gnuplot's own messages quote the script, names and all: what a gnuplot
# (made here) that fails says, its script and an escape sequence of its
# own, is passed on clean.
mkdir fake
cat > fake/gnuplot <<'SH'
#!/bin/sh
cat >&2
printf 'line 9: \033[2J\n' >&2
exit 1
SH
chmod +x fake/gnuplot
payload esc > p.txt
f=$(csvq)
f=$f awk -F, -v OFS=, 'NR > 1 && $8 != "" { $8 = ENVIRON["f"] } { print }' \
    demo.csv > name.csv
rc=0
PATH=$PWD/fake:$PATH gpumem-gantt -o g.png name.csv 2> gnuplot.txt || rc=$?
expect_eq "gnuplot fails: exit" $rc 2
grep -q 'ev \[2Jil' gnuplot.txt || die "gnuplot's words were not passed on"
clean gnuplot.txt "gnuplot's messages"
exit 0
