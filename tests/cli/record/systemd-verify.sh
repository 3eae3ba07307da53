# contrib/systemd/gpumem-recorder.service passes systemd-analyze verify
# (its ExecStart pointed at the tree's script); a unit whose ExecStart is
# missing does not, so the check can fail.  Skipped without
# systemd-analyze.
. "$TESTS/lib.sh"
src=$TESTS/../contrib/systemd
command -v systemd-analyze > /dev/null || skip "systemd-analyze is absent"
sed "s|^ExecStart=.*|ExecStart=$src/gpumem-recorder|" \
    "$src/gpumem-recorder.service" > gpumem-recorder.service
systemd-analyze verify ./gpumem-recorder.service
mkdir bad
sed "s|^ExecStart=.*|ExecStart=$PWD/missing|" \
    "$src/gpumem-recorder.service" > bad/gpumem-recorder.service
! systemd-analyze verify bad/gpumem-recorder.service 2> /dev/null ||
    die "a unit with a missing ExecStart passed verify"
