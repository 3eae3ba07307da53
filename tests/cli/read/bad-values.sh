# Bad option values name the option, the value and what is allowed.
. "$TESTS/lib.sh"
gpumem-read --window 0 /dev/null; echo "exit $?"
gpumem-read --interval fast /dev/null; echo "exit $?"
gpumem-read --since yesterday /dev/null; echo "exit $?"
gpumem-read --gpu 1-x /dev/null; echo "exit $?"
gpumem-read --format nope /dev/null; echo "exit $?"
