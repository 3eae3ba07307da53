# Shell completion (contrib/completion): bash, driven through the function
# bash calls on TAB; zsh and fish scripts parse.  The lists come from the
# installed programs, so they are checked against the programs in $GPUMEM_BIN.
. "$TESTS/lib.sh"
top=$TESTS/..
command -v bash > /dev/null || skip "bash is absent"
PATH=$GPUMEM_BIN:$PATH
export PATH

# complete WORD...: what TAB offers after the words (the last one is being
# completed), one per line, sorted.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
	    _gpumem; printf "%s\n" "${COMPREPLY[@]}"' sh \
	    "$top/contrib/completion/gpumem.bash" "$@" | sort
}

# Every program in the bin folder is a verb, and nothing else is.
want=$(cd "$GPUMEM_BIN" && ls gpumem-* | sed 's/^gpumem-//'; echo help)
expect_eq "verbs" "$(complete_words gpumem '')" "$(echo "$want" | sort)"
expect_eq "gpumem re" "$(complete_words gpumem re)" "read
record
report"
expect_eq "gpumem help ta" "$(complete_words gpumem help ta)" "tasks"
expect_eq "gpumem tasks --tol" "$(complete_words gpumem tasks --tol)" "--tolerance"
expect_eq "gpumem-check --max-l" "$(complete_words gpumem-check --max-l)" "--max-leak"
expect_eq "gpumem synth --scenario le" \
    "$(complete_words gpumem synth --scenario le)" "leak"
expect_eq "gpumem synth -s two-l" "$(complete_words gpumem synth -s two-l)" \
    "two-loops"
expect_eq "gpumem read --format" "$(complete_words gpumem read --format '')" \
    "$(printf '%s\n' bundle compute-apps dcgmi dmon pcap pmon prom query-gpu \
    query-text stream table xml)"
# A file name after an option that takes none.
: > 'my log.csv'
expect_eq "gpumem tasks my" "$(complete_words gpumem tasks my)" "my log.csv"
# Every verb completes --help.
for v in $(cd "$GPUMEM_BIN" && ls gpumem-* | sed 's/^gpumem-//'); do
	expect_eq "gpumem $v --hel" "$(complete_words gpumem "$v" --hel)" "--help"
	expect_eq "gpumem-$v --vers" "$(complete_words "gpumem-$v" --vers)" \
	    "--version"
done
# zsh and fish: the scripts parse (where the shells are installed).
if command -v zsh > /dev/null; then
	zsh -n "$top/contrib/completion/_gpumem" || die "_gpumem: zsh syntax"
fi
if command -v fish > /dev/null; then
	fish -n "$top/contrib/completion/gpumem.fish" ||
	    die "gpumem.fish: fish syntax"
	fishc() {
		fish -c 'source $argv[1]; complete -C $argv[2]' \
		    "$top/contrib/completion/gpumem.fish" "$1" | cut -f 1 | sort
	}
	expect_eq "fish: gpumem re" "$(fishc 'gpumem re')" "read
record
report"
	expect_eq "fish: gpumem tasks --tol" "$(fishc 'gpumem tasks --tol')" \
	    "--tolerance"
	expect_eq "fish: gpumem synth --scenario le" \
	    "$(fishc 'gpumem synth --scenario le')" "leak"
fi
