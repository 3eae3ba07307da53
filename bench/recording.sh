# SPDX-License-Identifier: ISC
# bench/recording.sh, sourced by pairs.sh.
#
# node_recording DIR: two recordings of one node as
# contrib/systemd/gpumem-recorder rotates them (DIR/X/hours/START/ and
# the links DIR/X/START.query-gpu.csv, START.compute-apps.csv), ending at
# the time in DIR/now, made unless DIR/.done says they are there already:
#
#   DIR/day     the last 24 hours, a period an hour: nvidia-smi logs of
#               8 GPUs at 1 s (awk), on each GPU a process of 4096 MiB
#               from 880 s to 320 s before each 1200 s step back from
#               the end; each log last written at its hour's end
#   DIR/month   the same 24 hours (hard links), and the 29 days before
#               them: 696 periods more, each holding an hour of these
#               logs (hard links to one copy, last written 24 hours
#               before the end), as large as the real ones
#
# The job of the Epilog's bench ran on GPU 0 from 900 s to 300 s before
# the end, a process of its own inside: it left no GPU memory.
node_recording() {
	[ -f "$1/.done" ] && return 0
	rm -rf "$1"
	mkdir -p "$1/day/hours" "$1/month/hours"
	echo "bench: making a node's recording (30 days, the last one logged)" >&2
	_nr_now=$(date +%s)
	_nr_first=$((_nr_now - _nr_now % 3600 - 23 * 3600))
	_nr_h=0
	while [ $_nr_h -lt 24 ]; do
		_nr_p=$(date -u -d "@$((_nr_first + _nr_h * 3600))" +%Y%m%dT%H%M%S)
		mkdir "$1/day/hours/$_nr_p"
		_nr_h=$((_nr_h + 1))
	done
	awk -v first=$_nr_first -v now=$_nr_now -v dir="$1/day/hours" '
	function ts(t) { return strftime("%Y/%m/%d %H:%M:%S.000", t, 1) }
	BEGIN {
		for (t = first; t < now; t++) {
			if ((t - first) % 3600 == 0) {
				close(q); close(a)
				p = dir "/" strftime("%Y%m%dT%H%M%S", t, 1)
				q = p "/query-gpu.csv"; a = p "/compute-apps.csv"
				print "timestamp, index, uuid, pci.bus_id, memory.total [MiB], memory.reserved [MiB], memory.used [MiB], memory.free [MiB]" > q
				print "timestamp, gpu_uuid, gpu_bus_id, pid, process_name, used_gpu_memory [MiB]" > a
			}
			k = int((now - t) / 1200)
			r = (now - t) % 1200
			on = r <= 880 && r >= 320
			when = ts(t)
			for (g = 0; g < 8; g++) {
				u = sprintf("GPU-%08d-0000-0000-0000-000000000000", g)
				b = sprintf("00000000:%02X:00.0", g + 1)
				m = 2 + (on ? 4096 : 0)
				printf "%s, %d, %s, %s, 81920 MiB, 500 MiB, %d MiB, %d MiB\n", when, g, u, b, m, 81420 - m > q
				if (on)
					printf "%s, %s, %s, %d, python3, 4096 MiB\n", when, u, b, 100000 + k * 8 + g > a
			}
		}
	}'
	for _nr_d in "$1"/day/hours/*; do
		_nr_p=${_nr_d##*/}
		_nr_t=$(date -u -d "$(echo "$_nr_p" |
		    sed 's/\(....\)\(..\)\(..\)T\(..\)\(..\)\(..\)/\1-\2-\3 \4:\5:\6/')" +%s)
		_nr_t=$((_nr_t + 3599))
		[ $_nr_t -le $_nr_now ] || _nr_t=$_nr_now
		touch -d "@$_nr_t" "$_nr_d"/*.csv
		mkdir "$1/month/hours/$_nr_p"
		for _nr_l in query-gpu compute-apps; do
			ln "$_nr_d/$_nr_l.csv" "$1/month/hours/$_nr_p/"
			ln -s "hours/$_nr_p/$_nr_l.csv" "$1/day/$_nr_p.$_nr_l.csv"
			ln -s "hours/$_nr_p/$_nr_l.csv" "$1/month/$_nr_p.$_nr_l.csv"
		done
	done
	# The 29 days before: one copy of the first hour, last written a day
	# before the end, hard-linked as each period.
	_nr_p=$(date -u -d "@$_nr_first" +%Y%m%dT%H%M%S)
	mkdir "$1/old"
	cp "$1/day/hours/$_nr_p/query-gpu.csv" "$1/day/hours/$_nr_p/compute-apps.csv" "$1/old/"
	touch -d "@$((_nr_now - 86400))" "$1/old/"*.csv
	_nr_h=1
	while [ $_nr_h -le 696 ]; do
		_nr_p=$(date -u -d "@$((_nr_first - _nr_h * 3600))" +%Y%m%dT%H%M%S)
		mkdir "$1/month/hours/$_nr_p"
		for _nr_l in query-gpu compute-apps; do
			ln "$1/old/$_nr_l.csv" "$1/month/hours/$_nr_p/"
			ln -s "hours/$_nr_p/$_nr_l.csv" "$1/month/$_nr_p.$_nr_l.csv"
		done
		_nr_h=$((_nr_h + 1))
	done
	echo "$_nr_now" > "$1/now"
	echo "bench: made in $(($(date +%s) - _nr_now)) s" >&2
	touch "$1/.done"
}
