#!/usr/bin/env python3
# schemacheck.py SCHEMA FILE [--ndjson]: check a JSON output of gpumem
# against its schema in docs/schema/.  python3's jsonschema is not always
# installed, so this checks the part of JSON Schema (2020-12) our schemas
# use: type, properties, required, additionalProperties (false),
# items, enum, const, pattern, minimum, oneOf, $ref to "#/$defs/NAME".
# --ndjson: the first line against $defs/head, every other against
# $defs/row.  Prints each problem as "FILE:LINE: PATH: what"; exit 1 when
# there is one, 2 on bad use.
import json
import re
import sys

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def check(root, s, v, path, errs):
    if "$ref" in s:
        s = root["$defs"][s["$ref"].split("/")[-1]]
    if "oneOf" in s:
        ok = [b for b in s["oneOf"] if not check(root, b, v, path, [])]
        if len(ok) != 1:
            errs.append("%s: matches %d of oneOf" % (path, len(ok)))
        return errs
    t = s.get("type")
    if t is not None:
        ts = t if isinstance(t, list) else [t]
        if not any(TYPES[x](v) for x in ts):
            errs.append("%s: %r is not %s" % (path, v, "/".join(ts)))
            return errs
    if "enum" in s and v not in s["enum"]:
        errs.append("%s: %r not in %r" % (path, v, s["enum"]))
    if "const" in s and v != s["const"]:
        errs.append("%s: %r is not %r" % (path, v, s["const"]))
    if "pattern" in s and isinstance(v, str) and not re.search(s["pattern"], v):
        errs.append("%s: %r does not match %s" % (path, v, s["pattern"]))
    if "minimum" in s and TYPES["number"](v) and v < s["minimum"]:
        errs.append("%s: %r below %r" % (path, v, s["minimum"]))
    if isinstance(v, dict):
        props = s.get("properties", {})
        for k in s.get("required", []):
            if k not in v:
                errs.append("%s: %s missing" % (path, k))
        for k, x in v.items():
            if k in props:
                check(root, props[k], x, path + "." + k, errs)
            elif s.get("additionalProperties", True) is False:
                errs.append("%s: %s not in the schema" % (path, k))
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            check(root, s["items"], x, "%s[%d]" % (path, i), errs)
    return errs


def main():
    args = [a for a in sys.argv[1:] if a != "--ndjson"]
    if len(args) != 2:
        sys.stderr.write("usage: schemacheck.py SCHEMA FILE [--ndjson]\n")
        return 2
    root = json.load(open(args[0], encoding="utf-8"))
    text = open(args[1], encoding="utf-8").read()
    bad = 0
    if "--ndjson" in sys.argv:
        lines = text.split("\n")
        if lines[-1] != "":
            print("%s: the last line has no end" % args[1])
            bad += 1
        for n, line in enumerate(lines[:-1], 1):
            s = {"$ref": "#/$defs/" + ("head" if n == 1 else "row")}
            for e in check(root, s, json.loads(line), "$", []):
                print("%s:%d: %s" % (args[1], n, e))
                bad += 1
    else:
        for e in check(root, root, json.loads(text), "$", []):
            print("%s: %s" % (args[1], e))
            bad += 1
    return 1 if bad else 0


sys.exit(main())
