# Bad option values name the option, the value and what is allowed.
. "$TESTS/lib.sh"
rc=0; gpumem-read --window 0 /dev/null || rc=$?; echo "exit $rc"
rc=0; gpumem-read --interval fast /dev/null || rc=$?; echo "exit $rc"
rc=0; gpumem-read --since tomorrow /dev/null || rc=$?; echo "exit $rc"
rc=0; gpumem-read --gpu 1-x /dev/null || rc=$?; echo "exit $rc"
rc=0; gpumem-read --format nope /dev/null || rc=$?; echo "exit $rc"
