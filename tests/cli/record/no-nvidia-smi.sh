# Without nvidia-smi: say so, exit 2, and do not run the command.

rc=0; gpumem-record --nvidia-smi nvidia-smi-absent -o run -- touch ran || rc=$?
echo "exit $rc"
! [ -e ran ] || echo "the command ran"
rc=0; FAKE_BROKEN=1 PATH=$TESTS/tools/fakebin:$PATH gpumem-record -o run2 -- touch ran || rc=$?
echo "exit $rc"
! [ -e ran ] || echo "the command ran"
# An old driver without memory.reserved: the log goes without it.
FAKE_NO_RESERVED=1 PATH=$TESTS/tools/fakebin:$PATH gpumem-record --after 0 -o old -- true
head -n 1 old/query-gpu.csv
