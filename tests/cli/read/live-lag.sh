# Live, a record that comes more than --lag behind one read before it
# cannot be put in order any more: skipped and said (with --lag to try);
# within the lag it is put in order.
gpumem-synth -s leak > a.csv
awk 'NR == 1 { print; next }
	NR == 3 { held = $0; next }
	NR == 6 { print; print held; next }
	{ print }' a.csv | head -n 12 > late.csv
gpumem-read --live late.csv
echo "exit $?"
gpumem-read --live --lag 5s late.csv
echo "exit $?"
