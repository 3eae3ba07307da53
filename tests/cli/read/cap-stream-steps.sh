# Clock steps in a capture are judged per (sender, GPU) stream (issue 31),
# on a capture written from the specs by tests/tools/gmemcap.py (tshark
# with contrib's dissector reads it first: the frames the spec says), its
# senders' frames interleaved: S1 (10.0.0.1 port 5000) steps back 5 min at
# its 21st record, an NTP correction: said, and read as continuing, its
# true times exactly; S2 (the same address and GPU, port 5001) runs 19 s
# ahead of it all along: as stamped, no step; S3 restarts on its port
# numbering anew, and S3b after its last frame flagged, each with a clock
# 60 s behind: a new stream, as stamped; S4 has one time near 2^63 among
# times of 2026, and S6 one at 2^63 - 2^61: read as they are (continuing
# from there would carry them past the signed range), said; S5, an hour before the end of the signed
# range, steps back 30 min: continuing up to the end, the records past it
# held there, counted and said, never wrapped.  The truth is written
# beside each frame as the capture is made.
. "$TESTS/lib.sh"
cat > gen.py <<'PY'
T0 = 1767225600 * 10**9
S = 10**9
E = 2**63 - 1
streams = []
# S1: an NTP step back of 5 min at its 21st record: read as continuing.
s = []
for i in range(40):
    s.append(("10.0.0.1", 5000, 0, 0, T0 + i * S - (300 * S if i >= 20 else 0), T0 + i * S))
streams.append(s)
# S2: the same host, another port, its clock 19 s ahead: as stamped.
streams.append([("10.0.0.1", 5001, 0, 0, T0 + (19 + i) * S, None) for i in range(40)])
# S3: restarts on its port, numbering anew, its clock 60 s behind.
streams.append([("10.0.0.2", 6000, 0, 0, T0 + (i if i < 20 else i - 60) * S, None) for i in range(40)])
# S3b: its last frame flagged, then again from its port, 60 s behind.
streams.append([("10.0.0.2", 6001, 1, 1 if i == 19 else 0, T0 + (i if i < 20 else i - 60) * S, None) for i in range(40)])
# S4: one time near 2^63 among its 2026 times: nothing rewritten.
streams.append([("10.0.0.3", 7000, 0, 0, E - 5 if i == 10 else T0 + i * S, None) for i in range(21)])
# S6: one time at 2^63 - 2^61 (2189) among its 2026 times: continuing
# would pass the end within as long again as the step back: as they are.
streams.append([("10.0.0.5", 9000, 0, 0, E - 2**61 if i == 10 else T0 + i * S, None) for i in range(21)])
# S5: an hour before the end of the signed range, steps back 30 min:
# read as continuing, up to the end, and held there.
B = E - 3600 * S
s = [("10.0.0.4", 8000, 0, 0, B + 60 * i * S, None) for i in range(11)]
s += [("10.0.0.4", 8000, 0, 0, B - 1140 * S + 60 * k * S, min(B + 660 * S + 60 * k * S, E)) for k in range(60)]
streams.append(s)
seq = {}
spec = open("spec.txt", "w")
want = open("want.txt", "w")
n = 0
while any(streams):
    for s in streams:
        if not s:
            continue
        src, sport, gpu, flags, ts, wts = s.pop(0)
        k = (src, sport, gpu)
        q = seq.get(k, 0)
        if src == "10.0.0.2" and gpu == 0 and q == 20:
            q = 0       # S3's restart
        seq[k] = q + 1
        used = n % 5000 + 1
        n += 1
        print(src, sport, gpu, q, flags, ts, used, file=spec)
        print("%d,%s,%d,0,%d,%d,8192," % (wts if wts is not None else ts, src, gpu, used, 8192 - used), file=want)
PY
python3 gen.py
python3 "$TESTS/tools/gmemcap.py" cap.pcap < spec.txt
sort want.txt > want-sorted.txt
if command -v tshark > /dev/null; then
	export HOME=$PWD	# tshark keeps its profile there
	if tshark -v 2> /dev/null | grep -q 'with Lua'; then
		awk '{ printf "%s,%s,%s,0,%s,%d,8192,\n", $6, $1, $3, $7, 8192 - $7 }' \
		    spec.txt | sort > sent.txt
		sh "$TESTS/tools/tsharkrecs.sh" cap.pcap | sort | cmp -s - sent.txt ||
			die "tshark reads other records than the spec"
	fi
fi
gpumem-read cap.pcap > got.csv
tail -n +2 got.csv | sort | cmp -s - want-sorted.txt ||
	die "records differ: $(tail -n +2 got.csv | sort | diff want-sorted.txt - | head -5)"
tail -n +2 got.csv | cut -d, -f1 | sort -n -c || die "not in time order"
