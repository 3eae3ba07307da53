# A command's main keeps its own policy only (DEVELOPERS.md): the main()
# of every command (each .c at the top of formats/, analyze/ and
# reports/, and the front, gpumem.c) is 80 lines at most, from its
# return type to its closing brace; the rest goes into named functions.
. "$TESTS/lib.sh"
top=$TESTS/..
set -- "$top"/gpumem.c "$top"/formats/*.c "$top"/analyze/*.c "$top"/reports/*.c
[ $# -ge 12 ] || die "only $# commands in the tree"
got=$(awk -v max=80 '
	FNR == 1 { s = 0 }
	/^main\(/ { s = FNR - 1; n++ }
	s && /^}/ {
		if (FNR - s + 1 > max)
			printf "%s: main is %d lines\n", FILENAME, FNR - s + 1
		s = 0
	}
	END { if (n != ARGC - 1) printf "%d mains in %d files\n", n, ARGC - 1 }
    ' "$@")
expect_eq "mains over 80 lines" "$got" ""
