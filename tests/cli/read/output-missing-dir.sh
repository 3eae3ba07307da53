# -o into a folder that does not exist (root may write anywhere else): the
# temporary file beside it cannot be made, which is trouble (exit 2) with
# the path and the reason, and nothing is written.
. "$TESTS/lib.sh"
gpumem-synth -s clean > s.csv
rc=0; gpumem-read -q -o missing/out.csv s.csv || rc=$?
echo "exit $rc"
[ ! -e missing ] || die "missing/ was made"
