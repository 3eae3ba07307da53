-- SPDX-License-Identifier: ISC
-- gmem.lua: a Wireshark dissector for GMEM GPU memory telemetry
-- (docs/wire-protocol.md of gpumem), over UDP and TCP.
--
-- Frames are found on port 9717 and, by their magic and version, on any
-- other UDP or TCP port.  Over TCP, frames split across segments are put
-- back together (dissect_tcp_pdus).  Every field has the spec's name
-- under "gmem." (gmem.timestamp, gmem.memory_used, ...); malformed
-- frames get expert info.  See README.md beside this file.

local gmem = Proto("gmem", "GMEM GPU memory telemetry")

local HDRLEN = 20
local RECLEN = 20
local PORT = 9717

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

local function has_magic(tvb, off)
    return tvb:len() - off >= 4 and tvb(off, 4):string() == "GMEM"
end

-- Dissect one frame of `len' bytes at the start of tvb; `want' is the
-- length its header announces.  Return the bytes used.
local function frame(tvb, pinfo, tree, len)
    pinfo.cols.protocol = "GMEM"
    local t = tree:add(gmem, tvb(0, len))
    if len < HDRLEN then
        t:add_proto_expert_info(e.short)
        return len
    end
    t:add(f.magic, tvb(0, 4))
    local vi = t:add(f.version, tvb(4, 1))
    local version = tvb(4, 1):uint()
    if version ~= 1 then
        vi:add_proto_expert_info(e.version, "Unknown GMEM version " ..
            version .. " (expected 1)")
    end
    local fi = t:add(f.flags, tvb(5, 1))
    fi:add(f.flags_last, tvb(5, 1))
    fi:add(f.flags_reserved, tvb(5, 1))
    if bit.band(tvb(5, 1):uint(), 0xfe) ~= 0 then
        fi:add_proto_expert_info(e.flags)
    end
    local gpu = tvb(6, 2):uint()
    t:add(f.gpu, tvb(6, 2))
    local seq = tvb(8, 4):uint()
    t:add(f.sequence, tvb(8, 4))
    local count = tvb(12, 2):uint()
    local ci = t:add(f.count, tvb(12, 2))
    local ri = t:add(f.reserved, tvb(14, 2))
    if tvb(14, 2):uint() ~= 0 then
        ri:add_proto_expert_info(e.reserved)
    end
    t:add(f.memory_total, tvb(16, 4))
    local want = HDRLEN + RECLEN * count
    if want ~= len then
        ci:add_proto_expert_info(e.length, "Length " .. len ..
            " does not match count " .. count .. " (" .. want .. " bytes)")
    end
    local n = math.min(count, math.floor((len - HDRLEN) / RECLEN))
    for i = 0, n - 1 do
        local r = tvb(HDRLEN + RECLEN * i, RECLEN)
        local rt = t:add(f.record, r)
        local ts = r(0, 8):uint64()
        rt:add(f.timestamp, r(0, 8))
        local secs = (ts / 1000000000):tonumber()
        local nsecs = (ts % 1000000000):tonumber()
        rt:add(f.time, r(0, 8), NSTime.new(secs, nsecs))
        rt:add(f.memory_used, r(8, 4))
        rt:add(f.memory_free, r(12, 4))
        rt:add(f.process_id, r(16, 4))
        rt:append_text(string.format(": pid %u, used %u MiB, free %u MiB",
            r(16, 4):uint(), r(8, 4):uint(), r(12, 4):uint()))
    end
    t:append_text(string.format(", GPU %u, Seq %u, %u record%s", gpu, seq,
        count, count == 1 and "" or "s"))
    local info = string.format("GPU %u seq %u, %u record%s", gpu, seq,
        count, count == 1 and "" or "s")
    if tostring(pinfo.cols.info):find("^GMEM") then
        pinfo.cols.info:append("; " .. info)
    else
        pinfo.cols.info:set("GMEM " .. info)
    end
    return len
end

-- UDP: one frame per datagram.
local function dissect_udp(tvb, pinfo, tree)
    return frame(tvb, pinfo, tree, tvb:len())
end

-- TCP: frames back to back in the stream.
local function pdu_len(tvb, pinfo, off)
    return HDRLEN + RECLEN * tvb(off + 12, 2):uint()
end

local function pdu(tvb, pinfo, tree)
    return frame(tvb, pinfo, tree, tvb:len())
end

local function dissect_tcp(tvb, pinfo, tree)
    dissect_tcp_pdus(tvb, tree, HDRLEN, pdu_len, pdu, true)
    return tvb:len()
end

function gmem.dissector(tvb, pinfo, tree)
    if pinfo.port_type == 2 then	-- TCP
        return dissect_tcp(tvb, pinfo, tree)
    end
    return dissect_udp(tvb, pinfo, tree)
end

-- Frames on other ports: by the magic and version.
local function heur_udp(tvb, pinfo, tree)
    if not has_magic(tvb, 0) or tvb:len() < 5 or tvb(4, 1):uint() ~= 1 then
        return false
    end
    dissect_udp(tvb, pinfo, tree)
    return true
end

local function heur_tcp(tvb, pinfo, tree)
    if not has_magic(tvb, 0) or tvb:len() < 5 or tvb(4, 1):uint() ~= 1 then
        return false
    end
    dissect_tcp(tvb, pinfo, tree)
    pinfo.conversation = gmem
    return true
end

DissectorTable.get("udp.port"):add(PORT, gmem)
DissectorTable.get("tcp.port"):add(PORT, gmem)
gmem:register_heuristic("udp", heur_udp)
gmem:register_heuristic("tcp", heur_tcp)
