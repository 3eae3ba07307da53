# The front: "gpumem help VERB" is gpumem-VERB --help, "gpumem help" is
# gpumem --help.  A verb is lower-case letters and dashes: an argument
# with a slash never makes the front run a program by a path of its own
# (here ./gpumem-../x, which would say "ran").
. "$TESTS/lib.sh"
gpumem-tasks --help > want.txt
gpumem help tasks > got.txt
cmp -s want.txt got.txt || die "gpumem help tasks is not gpumem-tasks --help"
gpumem --help > want.txt
gpumem help > got.txt
cmp -s want.txt got.txt || die "gpumem help is not gpumem --help"
mkdir gpumem-..
printf '#!/bin/sh\necho ran\n' > gpumem-../x
chmod +x gpumem-../x
for v in ../x Tasks "help ../x"; do
	rc=0
	gpumem $v > out.txt 2> err.txt || rc=$?
	expect_eq "gpumem $v: exit" $rc 2
	! [ -s out.txt ] || die "gpumem $v wrote $(cat out.txt)"
	grep -q "^gpumem: " err.txt || die "gpumem $v said nothing"
done
