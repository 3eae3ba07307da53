# plot -T dumb with no --size: about 18 lines a panel, so that eight GPUs
# are eight readable panels, not 23 lines in all.  gnuplot's warnings
# about the script (the user never saw it: "line 198: warning: ...") are
# not relayed; with -v they are, in our shape, without the line number.
# A --size too small for the panels is said (not with -q).
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
# A size that leaves a panel's plot under 3 rows inside its frame is
# drawn as asked, and said, with the size that gives each panel its 18
# lines; at that size, nothing said.  One panel: 80x12 leaves 1 row,
# 110x14 leaves 4 (a row of marks, the ceiling, the usage, a tic row).
low() {
	echo "gpumem-plot: --size $1: $2 plots have under 3 rows inside their frame, too few to show the curves ($3 gives each panel 18 lines, as without --size)"
}
gpumem-plot -T dumb --size 80x30 multi.csv > chart.txt 2> err.txt
expect_eq "8 panels at 80x30" "$(grep -e --size err.txt)" "$(low 80x30 '8 of 8' 80x148)"
expect_eq "its chart" "$(wc -l < chart.txt | tr -d ' ')" 30
gpumem-plot -T dumb --size 80x148 multi.csv > /dev/null 2> err.txt
expect_eq "8 panels at 80x148" "$(grep -e --size err.txt || :)" ""
gpumem-synth -s leak > leak.csv
gpumem-plot -T dumb --size 80x12 leak.csv > /dev/null 2> err.txt
expect_eq "1 panel at 80x12" "$(grep -e --size err.txt)" "$(low 80x12 '1 of 1' 80x22)"
gpumem-plot -T dumb --size 110x14 leak.csv > /dev/null 2> err.txt
expect_eq "1 panel at 110x14" "$(grep -e --size err.txt || :)" ""
# A usage curve has no marks (their probe of the panels told the lines).
gpumem-usage leak.csv > usage.csv
gpumem-plot -T dumb --size 80x12 usage.csv > /dev/null 2> err.txt
expect_eq "a usage curve at 80x12" "$(cat err.txt)" "$(low 80x12 '1 of 1' 80x22)"
gpumem-plot -T dumb --size 110x14 usage.csv > /dev/null 2> err.txt
expect_eq "a usage curve at 110x14" "$(cat err.txt)" ""
# One panel keeps the terminal's height (24 without one, less a line).
gpumem-synth -s leak | gpumem-plot -T dumb > one.txt
expect_eq "one panel" "$(wc -l < one.txt | tr -d ' ')" 23
