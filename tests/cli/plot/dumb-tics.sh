# In text (-T dumb), the time axis's labels never run together: gnuplot
# places its own tics for pixels, and at 80 columns they read
# "00:00:3000:01:00".  For plot and gantt, synth scenarios of a few
# seconds to an hour at sizes that leave their panels room (squeezed
# panels put the key over the axis: left alone), every word of the line
# under the bottom frame is one whole label of the axis's format
# (hh:mm:ss.s, hh:mm:ss or hh:mm); the golden output has them all.
. "$TESTS/lib.sh"
# labels FILE: the words of the line under the last frame's bottom.
labels() {
	awk '/\+-----+\+ *$/ { getline; l = $0 } END { print l }' "$1"
}
check() {
	_what=$1
	_f=$2
	_l=$(labels "$_f")
	[ -n "$_l" ] || die "$_what: no time axis"
	for w in $_l; do
		echo "$w" | grep -Eq '^[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9])?)?$' ||
			die "$_what: '$w' is no label of its own (the axis: '$_l')"
	done
	echo "$_what: $(echo $_l)"
}
for s in demo burst leak ci-hour; do
	gpumem-synth -s $s -o $s.csv
	gpumem-tasks $s.csv > $s.tasks 2> /dev/null
	for size in 80x24 110x30 60x30; do
		gpumem-plot -T dumb --size $size $s.csv > p.txt 2> /dev/null
		check "plot $s $size" p.txt
		gpumem-gantt -T dumb --size $size $s.tasks > g.txt 2> /dev/null
		check "gantt $s $size" g.txt
	done
done
