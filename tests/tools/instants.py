#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""tests/tools/instants.py FILE...: every instant each FILE writes, a line
"FILE NS" each (NS nanoseconds since the epoch, sorted and once each per
file; the file alone without FILE when one is given), found by their look
alone and sharing nothing with gpumem's parsers: ISO 8601 and
nvidia-smi's "YYYY/MM/DD HH:MM:SS.mmm" (a zone when given, else UTC),
ctime's "Tue Oct 29 19:00:23 [UTC] 2024" (date(1), -q -x, the table,
gpustat), Windows cmd's "Tue 08/18/2020" and "03:44 PM" lines, and
numbers that are epoch seconds (10 digits, a fraction), milliseconds (13)
or nanoseconds (19 digits).  Run under TZ=UTC, as the cases are.
"""
import re, sys, calendar
MON = {m: i + 1 for i, m in enumerate('Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split())}
def ns(y, mo, d, h, mi, s, frac='', off=0):
    sec = calendar.timegm((int(y), int(mo), int(d), int(h), int(mi), int(s))) - off
    f = (frac or '').lstrip('.')[:9].ljust(9, '0')
    return sec * 10**9 + int(f)


def instants(text):
    out = set()
    iso = re.compile(r'(\d{4})[-/](\d\d)[-/](\d\d)[T ](\d\d):(\d\d):(\d\d)(\.\d+)?(Z|[+-]\d\d:?\d\d)?')
    for m in iso.finditer(text):
        z = m.group(8); off = 0
        if z and z != 'Z':
            sg = -1 if z[0] == '-' else 1; z = z[1:].replace(':', '')
            off = sg * (int(z[:2]) * 3600 + int(z[2:]) * 60)
        out.add(ns(*m.groups()[:7], off=off))
    ct = re.compile(r'(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) +(\w{3}) +(\d+) +(\d\d):(\d\d):(\d\d)(?: +[A-Z]{3,4})? +(\d{4})')
    for m in ct.finditer(text):
        mo, d, h, mi, s, y = m.groups()
        if mo in MON:
            out.add(ns(y, MON[mo], d, h, mi, s))
    # Windows cmd: "Tue 08/18/2020" then "03:44 PM"
    day = None
    for line in text.splitlines():
        m = re.match(r'\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d\d)/(\d\d)/(\d{4})\s*$', line)
        if m:
            day = m.groups(); continue
        m = re.match(r'\s*(\d\d):(\d\d) ([AP]M)\s*$', line)
        if m and day:
            h = int(m.group(1)) % 12 + (12 if m.group(3) == 'PM' else 0)
            out.add(ns(day[2], day[0], day[1], h, m.group(2), 0))
    # numbers that are epoch seconds, ms or ns (record streams, exporters)
    for m in re.finditer(r'(?<![\d.])(1[0-9]{9})(\.\d+)?(?![\d])|(?<![\d.])(1[0-9]{12})(?![\d])|(?<![\d.])(1[0-9]{18})(?![\d])', text):
        if m.group(1):
            out.add(int(m.group(1)) * 10**9 + int((m.group(2) or '.').lstrip('.')[:9].ljust(9, '0') or 0))
        elif m.group(3):
            out.add(int(m.group(3)) * 10**6)
        else:
            out.add(int(m.group(4)))
    return sorted(out)


for name in sys.argv[1:]:
    text = open(name, 'rb').read().decode('utf-8', 'replace')
    for v in instants(text):
        print(v if len(sys.argv) == 2 else name + ' ' + str(v))
