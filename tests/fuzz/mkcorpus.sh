#!/bin/sh
# SPDX-License-Identifier: ISC
# tests/fuzz/mkcorpus.sh: (re)make the seed corpora of the fuzz targets,
# tests/fuzz/corpus/<name>/, from what gpumem makes itself: streams,
# nvidia-smi logs and captures from gpumem synth and gpumem pcap, task
# tables from gpumem tasks, and the small fixtures the end-to-end tests
# write (each test of tests/cli/{read,tasks,check} is run in a scratch
# directory and the inputs it leaves are sorted by format).  Nothing comes
# from the shared corpus: run.sh reads that in place.
#
#	sh tests/fuzz/mkcorpus.sh BINDIR BUILDDIR
#
# Seeds stay small (at most 16 KiB each): a fuzzer mutates small inputs
# faster, and the test suite replays every one in both builds.  Review the
# change (git status) and commit it.
set -eu
[ $# -eq 2 ] || { echo "usage: sh tests/fuzz/mkcorpus.sh BINDIR BUILDDIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
out=$top/tests/fuzz/corpus
MAX=16384
PATH=$bin:$PATH
export PATH LC_ALL=C TZ=UTC
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpumem-mkcorpus.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM

# put TARGET NAME FILE: keep FILE as a seed of TARGET, if small enough
# and not a copy of one kept already.
put() {
	[ -f "$3" ] || return 0
	size=$(wc -c < "$3")
	[ "$size" -le $MAX ] || return 0
	sum=$(cksum < "$3")
	grep -qx "$sum" "$scratch/seen-$1" 2>/dev/null && return 0
	echo "$sum" >> "$scratch/seen-$1"
	mkdir -p "$out/$1"
	cp "$3" "$out/$1/$2"
}

rm -rf "$out"
mkdir -p "$out"
cd "$scratch"

# --- Made by gpumem: streams, nvidia-smi logs, task tables ---
for s in demo leak partial-leak concurrent two-waiting pid-reuse noise \
    missing clean; do
	gpumem-synth -s "$s" -o s.csv
	put stream "synth-$s.csv" s.csv
	GPUMEM_STREAM=binary gpumem-synth -s "$s" -o s.bin
	put streambin "synth-$s.bin" s.bin
	gpumem-synth -s "$s" --host node1 -o s.csv
	put tasks "synth-$s.csv" s.csv
	gpumem-tasks -q s.csv > t.csv
	put tasktab "synth-$s.csv" t.csv
	put charts "stream-$s.csv" s.csv
	put charts "tasks-$s.csv" t.csv
	gpumem-usage -q s.csv > u.csv
	put charts "usage-$s.csv" u.csv
	gpumem-usage -q --every 10s s.csv > u.csv
	put charts "usage-every-$s.csv" u.csv
	rm -rf nv
	gpumem-synth -s "$s" --nvsmi nv
	put querygpu "synth-$s.csv" nv/query-gpu.csv
	put computeapps "synth-$s.csv" nv/compute-apps.csv
done
gpumem-synth -s multi-gpu --duration 20s -o s.csv
put stream synth-multi-gpu.csv s.csv
gzip -n -c s.csv > s.csv.gz
put detect synth-multi-gpu.csv.gz s.csv.gz
GPUMEM_STREAM=binary gpumem-read -q s.csv > s.bin
put detect synth-multi-gpu.bin s.bin
gpumem-synth -s demo --gmem --host 10.0.0.7 --duration 20s -o s.csv
put stream synth-gmem.csv s.csv

# --- Captures from gpumem pcap ---
gpumem-synth -s concurrent --gmem --host 10.0.0.7 --duration 15s -o g4.csv
gpumem-synth -s leak --gmem --host 2001:db8::7 --duration 10s -o g6.csv
n=0
for opts in "" "--tcp" "--pcapng" "--tcp --pcapng" "--tcp --segment 64" \
    "--mtu 200" "--link sll" "--link sll2" "--link raw" "--link null" \
    "--link loop" "--vlan 10" "--vlan 10,20" "--usec"; do
	n=$((n + 1))
	name=$(echo "pcap$opts" | tr ' ' '_' | tr -s '_-' | tr -d ',')
	for f in g4 g6; do
		gpumem-pcap -q $opts -o c.pcap $f.csv
		put capture "$name-$f" c.pcap
	done
done
# The link/IP/transport layers: each packet of a few captures, after a
# byte choosing its link type (fuzz_netlayers.c) and a byte of extra
# wire length.
for spec in "1:--tcp:g4" "1:--mtu_200:g6" "7:--link_sll:g4" "10:--link_sll2:g6" \
    "4:--link_raw:g4" "0:--link_null:g6" "6:--link_loop:g4" "1:--vlan_10,20:g4"; do
	sel=${spec%%:*}
	rest=${spec#*:}
	opts=$(echo "${rest%:*}" | tr '_' ' ')
	f=${rest#*:}
	gpumem-pcap -q $opts -o c.pcap $f.csv
	off=24
	"$build/tools/pcapedit" c.pcap | head -n 6 | while read -r k cap len; do
		{ printf "\\$(printf %03o "$sel")\\000"
		  dd if=c.pcap bs=1 skip=$((off + 16)) count="$cap" 2>/dev/null
		} > pkt
		put netlayers "link$sel-$(echo "$rest" | tr -d ':,_-')-$k" pkt
		off=$((off + 16 + cap))
	done
done
# Tunnels (tests/tools/tunnel.py, as cli/pcap/tunnel.sh makes them): a
# few packets in each, and their packets for the layers.
if command -v python3 > /dev/null; then
	gpumem-synth -s concurrent --gmem --host 10.0.0.7 --duration 3s \
	    -o t.csv
	gpumem-pcap -q -o u.pcap t.csv
	gpumem-pcap -q --tcp -o t.pcap t.csv
	for spec in "u:vxlan4" "u:vxlan6:port=8472" "t:gre4:key=7,seq,eth" \
	    "u:gre6:csum" "u:geneve4:opts=12" "t:geneve6:opts=8,eth" \
	    "u:ipip4_gre4_vxlan6_geneve4" "u:ipip4_gre4_vxlan4_geneve4_gre6" \
	    "t:vxlan4_frag=120"; do
		in=${spec%%:*}
		layers=$(echo "${spec#*:}" | tr '_' ' ')
		name=tunnel-$in-$(echo "${spec#*:}" | tr -d ':,=_')
		python3 "$top/tests/tools/tunnel.py" $in.pcap c.pcap $layers
		put capture "$name" c.pcap
		off=24
		"$build/tools/pcapedit" c.pcap | head -n 3 | while read -r k cap len; do
			{ printf '\001\000'
			  dd if=c.pcap bs=1 skip=$((off + 16)) count="$cap" 2>/dev/null
			} > pkt
			put netlayers "link1-$name-$k" pkt
			off=$((off + 16 + cap))
		done
	done
fi
# pcapng as the fallback reader reads it: a byte saying how many reads
# libpcap makes first (fuzz_pcapng.c), then the file.
for opts in "--pcapng" "--pcapng --tcp" "--pcapng --link sll2"; do
	gpumem-pcap -q $opts -o c.pcapng g4.csv
	for w in 0 3; do
		{ printf "\\$(printf %03o $w)"; cat c.pcapng; } > s
		put pcapng "$(echo "w$w$opts" | tr -d ' -')" s
	done
done

# --- GMEM frames, IP fragments, TCP segments (fuzz_gmem.c, fuzz_ipfrag.c,
# fuzz_tcp.c say how the bytes are read) ---
hdr='GMEM\001\000\000\001\000\000\000\007\000\002\000\000\000\000\100\000'
rec='\030\020\006\000\000\000\000\000\000\000\004\000\000\000\074\000\000\000\020\222'
printf "$hdr$rec$rec" > frame
put gmem udp-frame frame
# Settings 0x03 (both synced), feed 60 bytes on stream 0, a gap, 60 more.
{ printf '\003\000\074'; cat frame; printf '\004\012\000\074'; cat frame; } > s
put gmem tcp-two-frames s
{ printf '\014\001\074'; cat frame; printf '\001\050'; cat frame; } > s
put gmem tcp-unsynced s
# Fragments: settings, then flags, id, offset, length, data.
printf '\021\010\001\000\000\000\010AAAAAAAA\000\001\000\010\000\004BBBB' > s
put ipfrag v4-two s
printf '\021\041\002\000\000\000\004CCCC\001\002\000\000\000\004DDDD' > s
put ipfrag v6-last-first s
# Segments: settings, endpoints and flags, sequence mode, operands, data.
printf '\377\020\000\000\200\000\004GMEM\200\000\000\004\001\000\000\000' > s
put tcp syn-data s
printf '\252\220\001\000\010\000\000\004late\200\000\000\004\001\000\000\000' > s
put tcp out-of-order s

# --- The fixtures the end-to-end tests write ---
what_of() {
	w=$(gpumem-read -v -o /dev/null "$1" 2>&1 |
	    sed -n 's/^[^(]*records (\([^,;:)]*\).*/\1/p' | tail -n 1)
	[ -n "$w" ] || w=$(gpumem-read -v --start 2026-01-01T00:00:00Z \
	    --interval 1s -o /dev/null "$1" 2>&1 |
	    sed -n 's/^[^(]*records (\([^,;:)]*\).*/\1/p' | tail -n 1)
	echo "$w"
}
for t in "$top"/tests/cli/read/*.sh "$top"/tests/cli/tasks/*.sh \
    "$top"/tests/cli/check/*.sh "$top"/tests/cli/usage/*.sh; do
	case $t in */corpus-*|*/memory*|*/capture-memory*) continue ;; esac
	case=$(basename "$(dirname "$t")")-$(basename "$t" .sh)
	rm -rf run && mkdir run
	(cd run && TESTS=$top/tests CORPUS= GPUMEM_BIN=$bin TOOLS=$build/tools \
	    VARIANT=normal TMP=$scratch/run sh "$t" >/dev/null 2>&1 </dev/null) || :
	for f in run/* run/*/*; do
		[ -f "$f" ] || continue
		base=$(basename "$f")
		name=$case-$(echo "$base" | tr -c 'A-Za-z0-9._\n-' '_')
		if grep -q -- "--tasks[ =]*[^ ]*$base" "$t"; then
			put taskdecl "$name" "$f"
			continue
		fi
		case $base in
		*.yaml|*.yml) put config "$name" "$f"; continue ;;
		esac
		if head -n 1 "$f" | grep -q '^host,gpu,process_id,name,start,'; then
			put tasktab "$name" "$f"
			continue
		fi
		case $(what_of "$f") in
		"gpumem record stream"*) target=stream ;;
		"nvidia-smi --query-gpu CSV"*) target=querygpu ;;
		"nvidia-smi --query-compute-apps CSV"*) target=computeapps ;;
		"capture bundle"*) target=bundle ;;
		"nvidia-smi -q -x XML"*) target=xml ;;
		"nvidia-smi -q text"*) target=querytext ;;
		"nvidia-smi table"*) target=table ;;
		"nvidia-smi dmon"*) target=dmon ;;
		"nvidia-smi pmon"*) target=pmon ;;
		"dcgmi dmon"*) target=dcgmi ;;
		"Prometheus text"*) target=prom ;;
		"gpustat text"*) target=gpustat ;;
		"pcap capture"*|"pcapng capture"*) target=capture ;;
		*)
			# Refused or unreadable: detection's business, and
			# the format its message names.
			m=$(gpumem-read -o /dev/null "$f" 2>&1 | head -n 1)
			case $m in
			*"help text"*) put help "$name" "$f" ;;
			*dmon*) put dmon "$name" "$f" ;;
			*pmon*) put pmon "$name" "$f" ;;
			esac
			put detect "$name" "$f"
			continue
			;;
		esac
		put "$target" "$name" "$f"
	done
done
# Detection sees one of each format.
for d in "$out"/*; do
	case $(basename "$d") in
	gmem|ipfrag|tcp|netlayers|pcapng|config|taskdecl|tasktab|tasks|detect) continue ;;
	esac
	f=$(ls "$d" | head -n 1)
	[ -n "$f" ] && cp "$d/$f" "$out/detect/$(basename "$d")-$f"
done
# Every target has seeds.
for src in "$top"/tests/fuzz/fuzz_*.c; do
	n=$(basename "$src" .c)
	n=${n#fuzz_}
	[ -n "$(ls "$out/$n" 2>/dev/null)" ] || echo "mkcorpus: no seeds for $n" >&2
done
du -sh "$out" | sed 's/^/mkcorpus: /' >&2
for d in "$out"/*; do printf '%s %s\n' "$(ls "$d" | wc -l)" "$(basename "$d")"; done | column -c 100 >&2
