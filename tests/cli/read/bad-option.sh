# An unknown option: getopt's line naming it, the synopsis and a hint on
# stderr, nothing on stdout, exit 2 (before any input is read: the
# operand, which does not exist, is not named).
gpumem-read --no-such-option no-such-file
