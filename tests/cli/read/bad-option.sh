# An unknown option: the synopsis and a hint on stderr, exit 2.
gpumem-read --no-such-option
