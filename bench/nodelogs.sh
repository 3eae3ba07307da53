# SPDX-License-Identifier: ISC
# bench/nodelogs.sh, sourced by fleet.sh and pairs.sh.
#
# node_logs DIR N DUR [INTERVAL]: N node logs DIR/node-K.csv (gpumem
# synth, random tasks, 8 GPUs, sampled every INTERVAL (1s), DUR long,
# each node its own host), made unless DIR/.done says they are there
# already.
node_logs() {
	[ -f "$1/.done" ] && return 0
	rm -rf "$1"
	mkdir -p "$1"
	echo "bench: making $2 node logs ($3 of 8 GPUs at ${4:-1s})" >&2
	_nl_start=$(date +%s)
	seq 1 "$2" | xargs -P 2 -I N gpumem-synth -s random --seed N \
	    --host node-N --gpus 8 --interval "${4:-1s}" --duration "$3" \
	    -o "$1/node-N.csv"
	echo "bench: made in $(($(date +%s) - _nl_start)) s" >&2
	touch "$1/.done"
}
