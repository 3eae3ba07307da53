# plot -T dumb with no --size: about 18 lines a panel, so that eight GPUs
# are eight readable panels, not 23 lines in all.  gnuplot's warnings
# about the script (the user never saw it: "line 198: warning: ...") are
# not relayed; with -v they are, in our shape, without the line number.
. "$TESTS/lib.sh"
command -v gnuplot > /dev/null || skip "gnuplot is absent"
gpumem-synth -s multi-gpu > multi.csv
gpumem-plot -q -T dumb multi.csv > chart.txt 2> err.txt
expect_eq "lines" "$(wc -l < chart.txt | tr -d ' ')" $((18 * 8 + 4))
for g in 0 1 2 3 4 5 6 7; do
	grep -q "GPU $g: " chart.txt || die "no panel of GPU $g"
done
expect_eq "stderr" "$(cat err.txt)" ""
# At 80x30 gnuplot warns that the key's titles hardly fit: not said
# without -v, said with it.
gpumem-plot -q -T dumb --size 80x30 multi.csv > /dev/null 2> err.txt
expect_eq "stderr at 80x30" "$(cat err.txt)" ""
gpumem-plot -v -T dumb --size 80x30 multi.csv > /dev/null 2> err.txt
grep -q '^gpumem-plot: gnuplot: warning: .*fitting plot titles' err.txt ||
	die "-v: gnuplot's warning not relayed: $(cat err.txt)"
! grep -q "line [0-9]" err.txt || die "-v: a script line number: $(cat err.txt)"
# One panel keeps the terminal's height (24 without one, less a line).
gpumem-synth -s leak | gpumem-plot -T dumb > one.txt
expect_eq "one panel" "$(wc -l < one.txt | tr -d ' ')" 23
