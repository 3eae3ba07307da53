# A CSV whose every field is quoted (Excel, pandas' QUOTE_ALL), with the
# spaces after the commas kept or not, reads as the log it was made from:
# nvidia-smi's query-gpu and compute-apps logs and gpumem's own stream.
# A field that needs its quotes (a name with a comma or a quote) keeps
# them.  Quoted with awk, as a spreadsheet saves it.
. "$TESTS/lib.sh"
gpumem-synth -s demo -o s.csv
gpumem-synth -s demo --nvsmi nv
# quote_all SEP: every field in quotes, quotes inside doubled.
quote_all() {
	awk -F "$1" '{
		for (i = 1; i <= NF; i++) {
			f = $i
			gsub(/"/, "\"\"", f)
			printf "%s\"%s\"", (i > 1 ? "," : ""), f
		}
		printf "\r\n"
	}'
}
quote_all ', ' < nv/query-gpu.csv > q.csv
quote_all ',' < nv/compute-apps.csv > a.csv
quote_all ',' < s.csv > sq.csv
head -n 2 q.csv a.csv sq.csv | tr -d '\r'
gpumem-read -q q.csv a.csv | cmp - s.csv || die "quoted nvidia-smi logs read otherwise"
gpumem-read -q sq.csv | cmp - s.csv || die "the quoted stream reads otherwise"
gpumem-read q.csv a.csv sq.csv 2>&1 >/dev/null | grep records
# Names that need their quotes keep them: a comma, a quote.
printf '%s\r\n' '"timestamp","host","gpu","process_id","memory_used","memory_free","memory_total","process_name"' \
	'"1","h","0","7","10","","","a, b"' '"2","h","0","8","10","","","say ""hi"""' > names.csv
gpumem-read -q names.csv
