# While it records after the command, record says so once on stderr, with
# the real --after value (a silent wait looks like a hang); not with -q,
# not with --after 0.
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
gpumem-record --before 0 --after 0.3s -o a -- true
echo "-q:" >&2
gpumem-record -q --before 0 --after 0.3s -o b -- true
echo "--after 0:" >&2
gpumem-record --before 0 --after 0 -o c -- true
