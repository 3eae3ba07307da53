-- SPDX-License-Identifier: ISC
-- gmem.lua: a Wireshark dissector for GMEM GPU memory telemetry
-- (docs/wire-protocol.md of gpumem), over UDP and TCP.
--
-- What it claims is GMEM by its bytes, never by the port alone: a UDP
-- payload is a frame when it starts with the magic; in a TCP stream a
-- frame starts where "GMEM", version 1, no reserved flag bits and a zero
-- reserved field are, and its length comes from that header only.
-- Bytes before such a header (a connection captured from its middle,
-- the rest of a frame whose start was lost) are skipped and said as
-- expert info, never taken as records.  Frames that span segments are
-- reassembled by Wireshark's TCP one segment at a time, so that a
-- segment lost for good costs the frame it cuts and nothing after it; a
-- segment captured late, or overlapping the one before, or after an ack
-- ahead of it, which TCP keeps from GMEM with the default preferences, is
-- joined here with the edges of its neighbours.  A UDP length past its
-- IP packet is malformed, and datagrams to a port another dissector owns
-- are found by a post-dissector.
-- Malformed frames and frames seen twice get expert info and show their
-- values as text, not as gmem.* fields: what tshark exports as records
-- is what gpumem read gives.  Sequence gaps are expert info too.
-- See README.md beside this file.

local gmem = Proto("gmem", "GMEM GPU memory telemetry")

local HDRLEN = 20
local RECLEN = 20
local MAGIC = "GMEM"
local SEQ_WINDOW = 1024	-- recent sequence numbers remembered

gmem.prefs.port = Pref.uint("Port", 9717,
    "UDP and TCP port of GMEM (0: none; frames on other ports are " ..
    "found by their magic, through the heuristic dissectors)")

local f = gmem.fields
f.magic = ProtoField.string("gmem.magic", "Magic")
f.version = ProtoField.uint8("gmem.version", "Version")
f.flags = ProtoField.uint8("gmem.flags", "Flags", base.HEX)
f.flags_last = ProtoField.bool("gmem.flags.last", "Last frame of the stream",
    8, nil, 0x01)
f.flags_reserved = ProtoField.uint8("gmem.flags.reserved", "Reserved flags",
    base.HEX, nil, 0xfe)
f.gpu = ProtoField.uint16("gmem.gpu", "GPU")
f.sequence = ProtoField.uint32("gmem.sequence", "Sequence")
f.count = ProtoField.uint16("gmem.count", "Count")
f.reserved = ProtoField.uint16("gmem.reserved", "Reserved", base.HEX)
f.memory_total = ProtoField.uint32("gmem.memory_total", "Memory total (MiB)")
f.record = ProtoField.none("gmem.record", "Record")
f.timestamp = ProtoField.uint64("gmem.timestamp", "Timestamp (ns)")
f.time = ProtoField.absolute_time("gmem.time", "Time", base.UTC)
f.memory_used = ProtoField.uint32("gmem.memory_used", "Memory used (MiB)")
f.memory_free = ProtoField.uint32("gmem.memory_free", "Memory free (MiB)")
f.process_id = ProtoField.uint32("gmem.process_id", "Process id")
f.duplicate_of = ProtoField.framenum("gmem.duplicate_of",
    "Duplicate of the frame in packet")
f.lost = ProtoField.uint32("gmem.sequence.lost",
    "Frames missing before this one")
f.skipped = ProtoField.bytes("gmem.skipped", "Bytes skipped")
f.joined = ProtoField.framenum("gmem.joined",
    "Part of the frame in packet (a segment captured late)")

local e = gmem.experts
e.version = ProtoExpert.new("gmem.version.unknown", "Unknown GMEM version",
    expert.group.MALFORMED, expert.severity.ERROR)
e.flags = ProtoExpert.new("gmem.flags.set", "Reserved flag bits set",
    expert.group.MALFORMED, expert.severity.ERROR)
e.reserved = ProtoExpert.new("gmem.reserved.set", "Reserved field is not 0",
    expert.group.MALFORMED, expert.severity.ERROR)
e.length = ProtoExpert.new("gmem.length.bad",
    "Length does not match the record count",
    expert.group.MALFORMED, expert.severity.ERROR)
e.short = ProtoExpert.new("gmem.short", "Shorter than a GMEM header",
    expert.group.MALFORMED, expert.severity.ERROR)
e.cut = ProtoExpert.new("gmem.cut",
    "Frame cut by the capture's snapshot length",
    expert.group.MALFORMED, expert.severity.ERROR)
e.skipped = ProtoExpert.new("gmem.skipped.bytes",
    "Bytes skipped before a GMEM frame header",
    expert.group.SEQUENCE, expert.severity.WARN)
e.partial = ProtoExpert.new("gmem.partial",
    "Start of a frame whose rest is not in the capture",
    expert.group.SEQUENCE, expert.severity.WARN)
e.gap = ProtoExpert.new("gmem.sequence.gap", "Frames missing in sequence",
    expert.group.SEQUENCE, expert.severity.WARN)
e.late = ProtoExpert.new("gmem.sequence.late",
    "Late frame: it fills a gap said before",
    expert.group.SEQUENCE, expert.severity.NOTE)
e.restart = ProtoExpert.new("gmem.sequence.restart",
    "Sequence number seen before with other content: the sender restarted",
    expert.group.SEQUENCE, expert.severity.NOTE)
e.duplicate = ProtoExpert.new("gmem.duplicate",
    "Duplicate frame: its records are not exported",
    expert.group.SEQUENCE, expert.severity.WARN)

-- Big-endian integers of the Lua string s at 0-based offset o.
local function u8(s, o)
    return s:byte(o + 1)
end

local function u16(s, o)
    local a, b = s:byte(o + 1, o + 2)
    return a * 256 + b
end

local function u32(s, o)
    local a, b, c, d = s:byte(o + 1, o + 4)
    return ((a * 256 + b) * 256 + c) * 256 + d
end

-- Whether a frame header that may start a frame in a TCP stream is at o
-- (HDRLEN bytes there): magic, version 1, no reserved flag, reserved 0.
local function plausible(s, o)
    return s:sub(o + 1, o + 4) == MAGIC and u8(s, o + 4) == 1 and
        bit.band(u8(s, o + 5), 0xfe) == 0 and u16(s, o + 14) == 0
end

-- Whether the bytes from o to the end may be the start of such a header.
local function header_prefix(s, o)
    local n = #s - o
    local m = math.min(n, 4)
    if s:sub(o + 1, o + m) ~= MAGIC:sub(1, m) then
        return false
    end
    if n >= 5 and u8(s, o + 4) ~= 1 then
        return false
    end
    if n >= 6 and bit.band(u8(s, o + 5), 0xfe) ~= 0 then
        return false
    end
    return n < 16 or u16(s, o + 14) == 0
end

-- The first offset from o on where a frame may start: a plausible header,
-- or the start of one cut by the end of s; #s when there is none.
local function next_start(s, o)
    local from = o + 1
    while true do
        local i = s:find(MAGIC, from, true)
        if i == nil then
            break
        end
        local p = i - 1
        if #s - p < HDRLEN then
            if header_prefix(s, p) then
                return p
            end
        elseif plausible(s, p) then
            return p
        end
        from = i + 1
    end
    for k = math.min(3, #s - o), 1, -1 do
        if header_prefix(s, #s - k) then
            return #s - k
        end
    end
    return #s
end

-- Sequence numbers per (sender, gpu), as gpumem read follows them, but
-- with the bytes of the last SEQ_WINDOW frames (gpumem read keeps 64
-- digests): a frame another dissector's reassembly hands over again,
-- hundreds of frames later, is still known as a copy.  Made on the first
-- pass through the packets, remembered for the next ones.
local senders = {}
local verdicts = {}

local function seq_restart(st, seq, frame, pkt)
    st.have = true
    st.last = seq
    st.ring = {}
    st.ring[seq % SEQ_WINDOW] = { seq = seq, frame = frame, pkt = pkt }
end

-- What the frame numbered seq (bytes frame, in packet pkt) is for its
-- (sender, gpu): { what = "new" | "late" | "dup" | "restart",
-- lost = frames missing before it, first, last = their numbers,
-- pkt = the packet of the frame it repeats }.
local function seq_check(st, seq, frame, pkt)
    if st.ended then
        -- After the sender's last frame a new run starts, unless this
        -- is a copy of a frame seen.
        local slot = st.ring[seq % SEQ_WINDOW]
        if slot ~= nil and slot.seq == seq and slot.frame == frame then
            return { what = "dup", lost = 0, pkt = slot.pkt }
        end
        st.have = false
    end
    st.ended = false
    if not st.have then
        seq_restart(st, seq, frame, pkt)
        return { what = "new", lost = 0 }
    end
    local d = (seq - st.last) % 4294967296
    if d >= 2147483648 then
        d = d - 4294967296
    end
    if d > 0 then
        st.last = seq
        st.ring[seq % SEQ_WINDOW] = { seq = seq, frame = frame, pkt = pkt }
        return { what = "new", lost = d - 1,
            first = (seq - d + 1) % 4294967296,
            last = (seq - 1) % 4294967296 }
    end
    if d > -SEQ_WINDOW then
        local slot = st.ring[seq % SEQ_WINDOW]
        if slot == nil or slot.seq ~= seq then
            st.ring[seq % SEQ_WINDOW] = { seq = seq, frame = frame,
                pkt = pkt }
            return { what = "late", lost = 0 }
        end
        if slot.frame == frame then
            return { what = "dup", lost = 0, pkt = slot.pkt }
        end
    end
    seq_restart(st, seq, frame, pkt)
    return { what = "restart", lost = 0 }
end

-- The verdict on a sound frame, from the first pass.
local function verdict(pinfo, gpu, seq, flags, frame)
    local host = tostring(pinfo.net_src)
    local key = pinfo.number .. " " .. host .. " " .. gpu .. " " .. seq
    if pinfo.visited then
        return verdicts[key] or { what = "new", lost = 0 }
    end
    local sk = host .. " " .. gpu
    local st = senders[sk]
    if st == nil then
        st = {}
        senders[sk] = st
    end
    local v = seq_check(st, seq, frame, pinfo.number)
    if v.what ~= "dup" and bit.band(flags, 1) ~= 0 then
        st.ended = true		-- whatever comes next starts afresh
    end
    if verdicts[key] == nil then
        verdicts[key] = v
    end
    return v
end

local function plural(n, what)
    return n .. " " .. what .. (n == 1 and "" or "s")
end

-- Add a header field: as a gmem.* field in a sound frame, as text in
-- another one (its values are not the sender's telemetry).
local function put(t, good, field, range, label, value)
    if good then
        return t:add(field, range)
    end
    return t:add(range, label .. ": " .. value)
end

-- The Info column: the packet's first frame replaces what is there (TCP's
-- remarks before its fence stay), the others are appended.
local info_pkt = nil

local function info(pinfo, text)
    pinfo.cols.protocol = "GMEM"
    local cur = tostring(pinfo.cols.info)
    if info_pkt == pinfo.number and cur:find("GMEM ", 1, true) then
        pinfo.cols.info:append("; " .. text)
        return
    end
    info_pkt = pinfo.number
    pinfo.cols.info:set("GMEM " .. text)
end

-- Dissect the frame of len bytes at offset o of tvb (s its bytes);
-- udp: the frame is a whole datagram (its length must agree with its
-- count), ulen the datagram's UDP length (it must not run past its IP
-- packet, as gpumem read requires).  A frame that fails a check, or
-- repeats one, shows its values as text only.  Returns the frame's tree
-- item.
local function frame(tvb, s, o, len, pinfo, tree, udp, ulen)
    local r = tvb(o, len)
    local t = tree:add(gmem, r)
    if len < HDRLEN then
        t:append_text(", " .. plural(len, "byte") .. ": not a whole header")
        t:add_proto_expert_info(e.short)
        info(pinfo, "malformed (short)")
        return t
    end
    local version = u8(s, o + 4)
    local flags = u8(s, o + 5)
    local gpu = u16(s, o + 6)
    local seq = u32(s, o + 8)
    local count = u16(s, o + 12)
    local resv = u16(s, o + 14)
    local want = HDRLEN + RECLEN * count
    local bad = {}
    if version ~= 1 then
        bad[#bad + 1] = { e.version, "Unknown GMEM version " .. version ..
            " (expected 1)" }
    end
    if bit.band(flags, 0xfe) ~= 0 then
        bad[#bad + 1] = { e.flags }
    end
    if resv ~= 0 then
        bad[#bad + 1] = { e.reserved }
    end
    if udp and ulen ~= nil and ulen - 8 > tvb:reported_len() then
        bad[#bad + 1] = { e.length, "UDP length " .. ulen .. " runs past " ..
            "the end of its IP packet (" .. tvb:reported_len() + 8 ..
            " bytes of UDP)" }
    end
    if udp and want ~= len then
        bad[#bad + 1] = { e.length, "Length " .. len ..
            " does not match count " .. count .. " (" .. want .. " bytes)" }
    end
    local cut = tvb:len() < tvb:reported_len() and o + len >= tvb:len()
    if cut then
        bad[#bad + 1] = { e.cut, "Frame cut by the capture's snapshot " ..
            "length (" .. len .. " of " .. tvb:reported_len() - o ..
            " bytes captured)" }
    end
    local v = { what = "new", lost = 0 }
    if #bad == 0 then
        v = verdict(pinfo, gpu, seq, flags, s:sub(o + 1, o + len))
    end
    local good = #bad == 0 and v.what ~= "dup"
    put(t, good, f.magic, tvb(o, 4), "Magic", s:sub(o + 1, o + 4))
    put(t, good, f.version, tvb(o + 4, 1), "Version", version)
    local fi = put(t, good, f.flags, tvb(o + 5, 1), "Flags",
        string.format("0x%02x", flags))
    if good then
        fi:add(f.flags_last, tvb(o + 5, 1))
        fi:add(f.flags_reserved, tvb(o + 5, 1))
    end
    put(t, good, f.gpu, tvb(o + 6, 2), "GPU", gpu)
    local si = put(t, good, f.sequence, tvb(o + 8, 4), "Sequence", seq)
    put(t, good, f.count, tvb(o + 12, 2), "Count", count)
    put(t, good, f.reserved, tvb(o + 14, 2), "Reserved",
        string.format("0x%04x", resv))
    put(t, good, f.memory_total, tvb(o + 16, 4), "Memory total (MiB)",
        u32(s, o + 16))
    for _, b in ipairs(bad) do
        if b[2] then
            t:add_proto_expert_info(b[1], b[2])
        else
            t:add_proto_expert_info(b[1])
        end
    end
    local sender = tostring(pinfo.net_src) .. " GPU " .. gpu
    if v.what == "dup" then
        t:add(f.duplicate_of, tvb(o, len), v.pkt):set_generated()
        t:add_proto_expert_info(e.duplicate, "Duplicate of the frame in " ..
            "packet " .. v.pkt .. " (" .. sender .. ", sequence " .. seq ..
            "): its records are not exported")
    elseif v.what == "late" then
        si:add_proto_expert_info(e.late)
    elseif v.what == "restart" then
        si:add_proto_expert_info(e.restart)
    end
    if v.lost > 0 then
        t:add(f.lost, tvb(o + 8, 4), v.lost):set_generated()
        si:add_proto_expert_info(e.gap, plural(v.lost, "frame") ..
            " missing before this one from " .. sender .. " (sequence " ..
            (v.lost == 1 and v.first or v.first .. " to " .. v.last) .. ")")
    end
    local n = math.min(count, math.floor((len - HDRLEN) / RECLEN))
    for i = 0, n - 1 do
        local ro = o + HDRLEN + RECLEN * i
        local rr = tvb(ro, RECLEN)
        local used, free, pid = u32(s, ro + 8), u32(s, ro + 12),
            u32(s, ro + 16)
        local rt
        if good then
            rt = t:add(f.record, rr)
            local ts = rr(0, 8):uint64()
            rt:add(f.timestamp, rr(0, 8))
            rt:add(f.time, rr(0, 8), NSTime.new(
                (ts / 1000000000):tonumber(), (ts % 1000000000):tonumber()))
            rt:add(f.memory_used, rr(8, 4))
            rt:add(f.memory_free, rr(12, 4))
            rt:add(f.process_id, rr(16, 4))
        else
            rt = t:add(rr, "Record (not exported)")
            rt:append_text(", timestamp " .. tostring(rr(0, 8):uint64()))
        end
        rt:append_text(string.format(": pid %u, used %u MiB, free %u MiB",
            pid, used, free))
    end
    local what = string.format("GPU %u seq %u, %s", gpu, seq,
        plural(count, "record"))
    t:append_text(", " .. what)
    if #bad > 0 then
        what = what .. " (malformed)"
    elseif v.what == "dup" then
        what = what .. " (duplicate)"
    end
    info(pinfo, what)
    return t
end

-- Say the n bytes at o that are not a frame: skipped on the way to the
-- next header, or the start of a frame whose rest the capture lacks.
local function skipped(tvb, s, o, n, tree, pinfo, why)
    local t = tree:add(gmem, tvb(o, n))
    t:append_text(", " .. plural(n, "byte") .. " skipped")
    t:add(f.skipped, tvb(o, n))
    if why == "partial" then
        t:add_proto_expert_info(e.partial, plural(n, "byte") ..
            " of a frame whose rest is not in the capture (or TCP " ..
            "reassembly is off)")
    else
        t:add_proto_expert_info(e.skipped, plural(n, "byte") .. " " ..
            "skipped before a GMEM frame header (" .. why .. ")")
    end
    pinfo.cols.protocol = "GMEM"
end

-- Packets in which frames were dissected (for the probe below).
local claimed_pkt = {}

-- UDP: a datagram starting with the magic is one frame.
local udp_length = Field.new("udp.length")

local function dissect_udp(tvb, pinfo, tree)
    local s = tvb:raw()
    if s:sub(1, 4) ~= MAGIC then
        return 0
    end
    local ul = udp_length()
    frame(tvb, s, 0, #s, pinfo, tree, true, ul and ul.value)
    claimed_pkt[pinfo.number] = true
    return #s
end

-- TCP streams found to be GMEM (for the probe below).
local gmem_streams = {}
local tcp_stream = Field.new("tcp.stream")
local tcp_seq = Field.new("tcp.seq")
local tcp_nxtseq = Field.new("tcp.nxtseq")
local tcp_len = Field.new("tcp.len")

-- The TCP sequence numbers of the segments whose data reached GMEM, per
-- stream: sorted disjoint ranges { lo, hi } (hi excluded).
local covered = {}

local function cover(sid, lo, hi)
    local c = covered[sid] or {}
    covered[sid] = c
    local out = {}
    for _, r in ipairs(c) do
        if r[2] < lo or r[1] > hi then
            out[#out + 1] = r
        else
            lo = math.min(lo, r[1])
            hi = math.max(hi, r[2])
        end
    end
    out[#out + 1] = { lo, hi }
    table.sort(out, function (a, b) return a[1] < b[1] end)
    covered[sid] = out
end

local function is_covered(sid, lo, hi)
    for _, r in ipairs(covered[sid] or {}) do
        if r[1] <= lo and hi <= r[2] then
            return true
        end
    end
    return false
end

local function claim(pinfo)
    claimed_pkt[pinfo.number] = true
    local st = tcp_stream()
    if st ~= nil then
        gmem_streams[st.value] = true
        local lo, hi = tcp_seq(), tcp_nxtseq()
        if lo ~= nil and hi ~= nil and not pinfo.visited then
            cover(st.value, lo.value, hi.value)
        end
    end
end

-- The edges of the segments, per TCP stream, for a segment that
-- Wireshark's TCP keeps from GMEM because it was captured late (see the
-- post-dissector below): heads[sid][seq] is the start of a frame that
-- ends a segment, for which one more segment was asked (seq: the
-- sequence number after it), until TCP joins that segment to it (open[sid]
-- says which head waits: the sequence numbers of its first byte and of
-- the byte after it); tails[sid][seq] the bytes before the first header
-- of data TCP handed over afresh (seq: the number of its first byte).
-- Each with the packet it is from.
local heads = {}
local tails = {}
local open = {}

-- The TCP stream and direction of the packet (a key of the tables
-- above), and the sequence numbers of the first byte of data of n bytes
-- that ends where the packet's data ends (what TCP hands GMEM on the
-- first pass always does: a segment, or the segments joined up to it)
-- and of the byte after it (tcp.nxtseq counts a FIN too); nil when
-- tshark gives none.
local function seg_bounds(pinfo, n)
    local st, seq, len = tcp_stream(), tcp_seq(), tcp_len()
    if st == nil or seq == nil or len == nil then
        return nil
    end
    local hi = (seq.value + len.value) % 4294967296
    return st.value .. ">" .. pinfo.dst_port, (hi - n) % 4294967296, hi
end

local function keep_edge(t, sid, seq, v)
    t[sid] = t[sid] or {}
    t[sid][seq] = v
end

-- The start of a frame kept in heads[sid] that data from sequence number
-- lo on goes on with: the head ends at lo, or past it (the data overlaps
-- its end, as a retransmission that carries new bytes too does).  Returns
-- the head's bytes before lo, its packet and its key; nil when none.
local function head_before(sid, lo)
    for k, h in pairs(heads[sid] or {}) do
        local back = (k - lo) % 4294967296
        if back < #h.s then
            return h.s:sub(1, #h.s - back), h.pkt, k
        end
    end
    return nil
end

-- Packets whose data TCP handed over afresh although a frame's start
-- waited for it (a segment it took for a retransmission: an ack ahead of
-- the data): the start joined, made on the first pass.
local joins = {}

-- TCP: frames back to back in the stream, from wherever the first
-- plausible header is.  A frame not whole yet waits for one more
-- segment (asked from Wireshark's TCP), which keeps a lost segment
-- from holding the bytes after it.  Returns 0 when nothing here is GMEM.
local function dissect_tcp(tvb, pinfo, tree)
    local s = tvb:raw()
    local n = #s
    local o = 0
    local claimed = false
    local sid, lo, hi
    if not pinfo.visited then
        sid, lo, hi = seg_bounds(pinfo, n)
    end
    local op = sid ~= nil and open[sid]
    if op and op.lo == lo then
        -- TCP joined the next segment to the head: no longer an edge.
        heads[sid][op.hi] = nil
        open[sid] = nil
    elseif sid ~= nil and not (n >= HDRLEN and plausible(s, 0)) then
        -- Data after a head that TCP did not join it to: join it here.
        local hs, pkt, k = head_before(sid, lo)
        if hs ~= nil then
            joins[pinfo.number] = { s = hs, pkt = pkt }
            heads[sid][k] = nil
            if op and op.hi == k then
                open[sid] = nil
            end
        end
    end
    local j = joins[pinfo.number]
    if j ~= nil then
        local js = j.s .. s
        local len = HDRLEN + RECLEN * u16(js, 12)
        if #js >= len and len > #j.s then
            local jt = ByteArray.new(js, true):tvb("Frame joined with " ..
                "its start")
            local ft = frame(jt, js, 0, len, pinfo, tree, false)
            ft:add(f.joined, jt(0, len), j.pkt):set_generated()
            claim(pinfo)
            claimed = true
            o = len - #j.s
        end
    end
    while o < n do
        local rem = n - o
        local whole = rem >= HDRLEN and plausible(s, o)
        local len = whole and HDRLEN + RECLEN * u16(s, o + 12)
        if whole and rem >= len then
            frame(tvb, s, o, len, pinfo, tree, false)
            claim(pinfo)
            claimed = true
            o = o + len
        elseif whole or (rem < HDRLEN and header_prefix(s, o)) then
            -- The start of a frame (or of its header) ends the data.
            if pinfo.can_desegment == 0 then
                skipped(tvb, s, o, rem, tree, pinfo, "partial")
                return n
            end
            if sid ~= nil then
                keep_edge(heads, sid, hi, { s = s:sub(o + 1),
                    pkt = pinfo.number })
                open[sid] = { lo = (hi - rem) % 4294967296, hi = hi }
            end
            pinfo.desegment_offset = o
            pinfo.desegment_len = DESEGMENT_ONE_MORE_SEGMENT
            return n
        else
            local p = next_start(s, o)
            if o == 0 and sid ~= nil then
                keep_edge(tails, sid, lo, { s = s:sub(1, p),
                    pkt = pinfo.number })
            end
            if p >= n and not claimed then
                return 0
            end
            claim(pinfo)
            local why = s:sub(o + 1, o + 4) == MAGIC and
                "a malformed GMEM header" or "not the start of a frame"
            skipped(tvb, s, o, p - o, tree, pinfo, why)
            claimed = true
            o = p
        end
    end
    return n
end

function gmem.dissector(tvb, pinfo, tree)
    if pinfo.port_type == 2 then	-- TCP
        return dissect_tcp(tvb, pinfo, tree)
    end
    return dissect_udp(tvb, pinfo, tree)
end

-- Frames on other ports, by their bytes.  A UDP payload with the magic
-- is GMEM (a malformed frame is said as such, as gpumem read does).  A
-- TCP segment is when a plausible header starts it, or, for a connection
-- captured from its middle, when a plausible header in it starts a frame
-- that ends at the end of the segment or at the next magic; the rest of
-- the connection then comes here first.
local function heur_udp(tvb, pinfo, tree)
    if tvb:len() < 4 or tvb(0, 4):string() ~= MAGIC then
        return false
    end
    dissect_udp(tvb, pinfo, tree)
    return true
end

local function tcp_looks_gmem(s)
    if #s >= HDRLEN and plausible(s, 0) then
        return true
    end
    local from = 1
    while true do
        local i = s:find(MAGIC, from, true)
        if i == nil then
            return false
        end
        local p = i - 1
        if #s - p >= HDRLEN and plausible(s, p) then
            local q = p + HDRLEN + RECLEN * u16(s, p + 12)
            if q == #s or s:sub(q + 1, q + 4) == MAGIC then
                return true
            end
        end
        from = i + 1
    end
end

local function heur_tcp(tvb, pinfo, tree)
    if not tcp_looks_gmem(tvb:raw()) then
        return false
    end
    pinfo.conversation = gmem
    dissect_tcp(tvb, pinfo, tree)
    return true
end

-- What Wireshark's TCP keeps from every dissector with the default
-- preferences: the data of a segment it takes for a retransmission (a
-- segment captured out of order is one unless tcp.reassemble_out_of_order
-- is on), and the data of a connection whose port another dissector owns
-- (TCP 6000, X11), which the heuristic never sees.  This post-dissector
-- looks at the TCP payload of every packet no GMEM was found in.  In a
-- GMEM stream it shows the whole frames of such a segment (those seen
-- before are duplicates, said and not exported), and the frames its edges
-- cut, joined with the start GMEM kept from the segment before it and the
-- rest it kept from the segments after it.  In another stream whose
-- payload holds a plausible header it makes GMEM the stream's dissector,
-- so that the segments after it come to GMEM first, and shows the whole
-- frames of this one (a frame it cuts at its end is lost).
local probe = Proto("gmem_probe", "GMEM in TCP data other dissectors kept")
local tcp_payload = Field.new("tcp.payload")
local udp_payload = Field.new("udp.payload")

-- The data s of a segment TCP kept from GMEM (sequence numbers lo to hi)
-- joined with its edges in stream sid: the start of a frame that ended
-- the segment before it, the rest of a frame that began the segment after
-- it (a frame longer than that rest and the late segment stays cut).
-- Returns the bytes and the parts from other packets in them, each
-- { first offset, offset after it, packet }; nil when there are none.
local function with_edges(sid, lo, hi, s)
    local parts, from = { s }, {}
    local hs, pkt = head_before(sid, lo)
    if hs ~= nil then
        table.insert(parts, 1, hs)
        from[1] = { 0, #hs, pkt }
    end
    local tl = tails[sid] and tails[sid][hi]
    if tl ~= nil then
        local at = #(hs or "") + #s
        parts[#parts + 1] = tl.s
        from[#from + 1] = { at, at + #tl.s, tl.pkt }
    end
    if #from == 0 then
        return nil
    end
    return table.concat(parts), from
end

-- The whole frames of one segment's payload t (s its bytes), without
-- reassembly: what is before the first header and after the last whole
-- frame is said as skipped.  from: the parts of s from other packets
-- (with_edges), said on the frames that hold them.  Returns the offsets
-- of the first frame and of the bytes after the last.
local function whole_frames(t, s, pinfo, tree, from)
    local o = #s >= HDRLEN and plausible(s, 0) and 0 or next_start(s, 0)
    local first = o
    if o > 0 then
        skipped(t, s, 0, o, tree, pinfo, "not the start of a frame")
    end
    while #s - o >= HDRLEN and plausible(s, o) do
        local len = HDRLEN + RECLEN * u16(s, o + 12)
        if #s - o < len then
            break
        end
        local ft = frame(t, s, o, len, pinfo, tree, false)
        for _, p in ipairs(from or {}) do
            if o < p[2] and p[1] < o + len then
                ft:add(f.joined, t(o, len), p[3]):set_generated()
            end
        end
        o = o + len
    end
    if o < #s then
        skipped(t, s, o, #s - o, tree, pinfo, "partial")
    end
    return first, o
end

function probe.dissector(tvb, pinfo, tree)
    if claimed_pkt[pinfo.number] then
        return
    end
    local pl = tcp_payload()
    if pl == nil then
        -- A datagram to a port another dissector owns (NTP's 123):
        -- the heuristic was never asked.
        local up = udp_payload()
        if up ~= nil and up.len >= 4 and up.range:raw(0, 4) == MAGIC then
            dissect_udp(up.range:tvb(), pinfo, tree)
        end
        return
    end
    local st = tcp_stream()
    local t = pl.range:tvb()
    local s = t:raw()
    if st ~= nil and not gmem_streams[st.value] and tcp_looks_gmem(s) then
        -- GMEM found in a stream: from here on, as a segment TCP kept
        -- from GMEM (its edges kept for the segments around it: those
        -- of a stream whose acks run ahead of its data all come here).
        pinfo.conversation = gmem
        gmem_streams[st.value] = true
    end
    if st ~= nil and gmem_streams[st.value] then
        -- A retransmission of data GMEM had: dissected where it was.
        local sid, lo, hi = seg_bounds(pinfo, #s)
        if sid == nil then
            whole_frames(t, s, pinfo, tree)
            return
        end
        if is_covered(st.value, lo, hi) then
            return
        end
        local joined, from = with_edges(sid, lo, hi, s)
        local hn = 0
        if joined ~= nil then
            t = ByteArray.new(joined, true):tvb("Late segment and its edges")
            hn = from[1][1] == 0 and from[1][2] or 0
        end
        local js = t:raw()
        local first, last = whole_frames(t, js, pinfo, tree, from)
        if pinfo.visited then
            return
        end
        -- Its own edges, for its neighbour should that be captured later
        -- still; and a copy of it is a retransmission.
        if hn == 0 and first > 0 then
            keep_edge(tails, sid, lo, { s = s:sub(1, first),
                pkt = pinfo.number })
        end
        local rem = #js - last
        if #js == hn + #s and rem > 0 and ((rem >= HDRLEN and
            plausible(js, last)) or (rem < HDRLEN and
            header_prefix(js, last))) then
            keep_edge(heads, sid, hi, { s = js:sub(last + 1),
                pkt = pinfo.number })
        end
        cover(st.value, lo, hi)
    elseif tcp_looks_gmem(s) then
        pinfo.conversation = gmem
        -- Whole frames are shown here.  Should the other dissector's
        -- reassembly hand them to GMEM later, they are duplicates then.
        whole_frames(t, s, pinfo, tree)
    end
end

function gmem.init()
    senders = {}
    verdicts = {}
    claimed_pkt = {}
    gmem_streams = {}
    covered = {}
    heads = {}
    tails = {}
    open = {}
    joins = {}
end

local port = 0

local function set_port(p)
    if port ~= 0 then
        DissectorTable.get("udp.port"):remove(port, gmem)
        DissectorTable.get("tcp.port"):remove(port, gmem)
    end
    port = p
    if port ~= 0 then
        DissectorTable.get("udp.port"):add(port, gmem)
        DissectorTable.get("tcp.port"):add(port, gmem)
    end
end

function gmem.prefs_changed()
    if gmem.prefs.port ~= port then
        set_port(gmem.prefs.port)
    end
end

set_port(gmem.prefs.port)
gmem:register_heuristic("udp", heur_udp)
gmem:register_heuristic("tcp", heur_tcp)
register_postdissector(probe)
