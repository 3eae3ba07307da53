# Live, a record that comes more than --lag behind one read before it
# cannot be put in order any more: skipped and said (with --lag to try);
# within the lag it is put in order.  Without --lag, such a record grows
# the lag to twice how late it was, said once: a second record as late
# is kept; with --lag given, the lag stays and both are skipped.
gpumem-synth -s leak > a.csv
awk 'NR == 1 { print; next }
	NR == 3 { held = $0; next }
	NR == 6 { print; print held; next }
	{ print }' a.csv | head -n 12 > late.csv
gpumem-read --live late.csv
echo "exit $?"
gpumem-read --live --lag 5s late.csv
echo "exit $?"
# Two records come 3 s late (those at 1 s and 6 s): the timestamps kept.
awk 'NR == 3 || NR == 10 { held = $0; next }
	NR == 6 || NR == 13 { print; print held; next }
	{ print }' a.csv | head -n 16 > twice.csv
gpumem-read --live twice.csv | cut -d, -f1 | tr '\n' ' '
echo
gpumem-read --live --lag 0 twice.csv | cut -d, -f1 | tr '\n' ' '
echo
