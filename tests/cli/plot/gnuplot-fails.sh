# gnuplot's failures are ours: its messages are passed through in our
# shape ("gpumem-plot: gnuplot: what", without the line numbers of a
# script the user never saw), the exit
# status is 2, and no half-written chart is left.  A gnuplot that dies
# without reading its script does not kill us with SIGPIPE.
. "$TESTS/lib.sh"
mkdir fake
cat > fake/gnuplot <<'SH'
#!/bin/sh
echo "gnuplot: line 3: undefined variable: boom" >&2
exit 1
SH
cat > fake/gnuplot-early <<'SH'
#!/bin/sh
exec 0<&-
echo "gnuplot: gave up" >&2
exit 3
SH
chmod +x fake/gnuplot fake/gnuplot-early
gpumem-synth -s leak > leak.csv
rc=0; PATH=$PWD/fake:$PATH gpumem-plot -o leak.png leak.csv > out.txt 2> err.txt || rc=$?
expect_eq "exit" $rc 2
expect_eq "stderr" "$(cat err.txt)" "gpumem-plot: gnuplot: undefined variable: boom
gpumem-plot: gnuplot failed (exit status 1)"
! [ -e leak.png ] || die "leak.png was left"
# gnuplot reads the script as the file /dev/stdin (from standard input it
# reads a byte a system call): its messages then name that file.
cat > fake/gnuplot-file <<'SH'
#!/bin/sh
[ "$1" = /dev/stdin ] || { echo "gnuplot: no script file: $*" >&2; exit 9; }
echo '"/dev/stdin" line 3: undefined variable: boom' >&2
exit 1
SH
mkdir fake2
mv fake/gnuplot-file fake2/gnuplot
chmod +x fake2/gnuplot
rc=0; PATH=$PWD/fake2:$PATH gpumem-plot -o leak.png leak.csv > out.txt 2> err.txt || rc=$?
expect_eq "exit" $rc 2
expect_eq "stderr" "$(cat err.txt)" "gpumem-plot: gnuplot: undefined variable: boom
gpumem-plot: gnuplot failed (exit status 1)"
! ls -a | grep -q '\.tmp' || die "a temporary file was left"
# A script far larger than a pipe's buffer (a noisy curve keeps all its
# points), to a gnuplot that closes its input at once.
awk 'BEGIN {
	print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
	for (i = 0; i < 40000; i++) {
		u = 1000 + (i * 7919) % 5000
		printf "%d%09d,,0,0,%d,%d,16384,\n", 1767225600 + int(i / 10), i % 10 * 100000000, u, 16384 - u
	}
}' > big.csv
gpumem-plot --script --size 4000x400 big.csv > big.gp
[ "$(wc -c < big.gp)" -gt 200000 ] || die "the script is only $(wc -c < big.gp) bytes"
mv fake/gnuplot-early fake/gnuplot
rc=0; PATH=$PWD/fake:$PATH gpumem-plot --size 4000x400 -o big.png big.csv 2> err.txt || rc=$?
expect_eq "early exit" $rc 2
# (the noise is memory no process listed: said before gnuplot runs)
expect_eq "stderr" "$(grep -v 'no process was listed' err.txt)" "gpumem-plot: gnuplot: gave up
gpumem-plot: gnuplot failed (exit status 3)"
exit 0
