#!/usr/bin/env python3
"""Generates a large, realistic Kineto trace by replicating a real trace's events over time.

Usage: gen_trace.py SOURCE OUT_JSON SIZE_MB

SOURCE is a real trace (plain or gzip). Its traceEvents are written again and again, each copy
shifted in time by the source's span, until the output reaches SIZE_MB (MiB). Every event keeps
its original text (Kineto's layout and number formatting); only these values are rewritten per copy:
  - "ts"                      + copy * span (exact decimal arithmetic, same fractional digits)
  - "id" / "bind_id"          + copy * id_stride  (flow ids, unique per copy)
  - "correlation", "External id" in args + copy * id_stride (launch links unique per copy)
Metadata events (ph "M") are written once. The top-level keys before and after the events array
(deviceProperties, distributedInfo, ...) are kept as they are.

The output is streamed: only the source trace is held in memory, never the output.
"""
import gzip
import json
import re
import sys

# The keys rewritten per copy, matched in the event's own text. Number or string values.
TS_RE = re.compile(r'("ts"\s*:\s*"?)(-?\d+(?:\.\d+)?)')
ID_RE = re.compile(r'("(?:id|bind_id|correlation|External id)"\s*:\s*"?)(\d+)(?=[",\s}])')


def read_source(path):
    with open(path, 'rb') as f:
        head = f.read(2)
    opener = gzip.open if head == b'\x1f\x8b' else open
    with opener(path, 'rb') as f:
        return f.read().decode('utf-8')


def split_events(text):
    """Returns (prefix, [event texts], suffix): prefix ends with '[', suffix starts at ']'."""
    m = re.search(r'"traceEvents"\s*:\s*\[', text)
    if not m:
        sys.exit('source has no "traceEvents" array')
    dec = json.JSONDecoder()
    i = m.end()
    events = []
    ws = re.compile(r'[\s,]*')
    while True:
        i = ws.match(text, i).end()
        if text[i] == ']':
            break
        obj, end = dec.raw_decode(text, i)
        events.append((obj, text[i:end]))
        i = end
    return text[:m.end()], events, text[i:]


def ts_ns(num_text):
    """Decimal microseconds text -> (integer ns, fractional digits)."""
    whole, _, frac = num_text.partition('.')
    frac = frac[:3]
    digits = len(frac)
    ns = int(whole) * 1000 + (int(frac.ljust(3, '0')) if frac else 0) * (1 if whole[0] != '-' else -1)
    return ns, digits


def fmt_ts(ns, digits):
    if digits == 0:
        return str(ns // 1000)
    s = '-' if ns < 0 else ''
    a = abs(ns)
    frac = str(a % 1000).rjust(3, '0')[:digits]
    return f'{s}{a // 1000}.{frac}'


def compile_event(raw):
    """Splits an event's text into literal pieces and slots: ('ts', ns, digits) or ('id', value)."""
    pieces, slots = [], []
    spans = []
    for m in TS_RE.finditer(raw):
        ns, digits = ts_ns(m.group(2))
        spans.append((m.start(2), m.end(2), ('ts', ns, digits)))
    for m in ID_RE.finditer(raw):
        spans.append((m.start(2), m.end(2), ('id', int(m.group(2)))))
    spans.sort()
    pos = 0
    for start, end, slot in spans:
        pieces.append(raw[pos:start])
        slots.append(slot)
        pos = end
    pieces.append(raw[pos:])
    return pieces, slots


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, out_path, size_mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
    target = int(size_mb * (1 << 20))
    prefix, events, suffix = split_events(read_source(src))
    # Time span of one copy (rounded up to whole µs, plus 1 ms of gap) and the id stride.
    lo, hi, max_id = None, None, 0
    compiled = []
    for obj, raw in events:
        pieces, slots = compile_event(raw)
        for s in slots:
            if s[0] == 'ts':
                end = s[1] + int(float(obj.get('dur', 0) or 0) * 1000)
                lo = s[1] if lo is None else min(lo, s[1])
                hi = end if hi is None else max(hi, end)
            else:
                max_id = max(max_id, s[1])
        compiled.append((obj.get('ph') == 'M', pieces, slots))
    span_ns = ((hi - lo) // 1000 + 1000) * 1000
    id_stride = 10 ** len(str(max_id + 1))
    written = 0
    copy = 0
    n_events = 0
    with open(out_path, 'w', encoding='utf-8', newline='') as out:
        out.write(prefix)
        written += len(prefix.encode())
        first = True
        while written < target:
            shift, id_shift = copy * span_ns, copy * id_stride
            buf = []
            for is_meta, pieces, slots in compiled:
                if is_meta and copy > 0:
                    continue
                parts = [pieces[0]]
                for k, s in enumerate(slots):
                    parts.append(fmt_ts(s[1] + shift, s[2]) if s[0] == 'ts' else str(s[1] + id_shift))
                    parts.append(pieces[k + 1])
                ev = ''.join(parts)
                buf.append(ev if first else ',\n  ' + ev)
                first = False
                n_events += 1
                if len(buf) >= 4096:
                    chunk = ''.join(buf)
                    out.write(chunk)
                    written += len(chunk.encode())
                    buf = []
                    if written >= target:
                        break
            chunk = ''.join(buf)
            out.write(chunk)
            written += len(chunk.encode())
            copy += 1
        out.write('\n  ' + suffix.lstrip())
    print(f'{out_path}: {n_events} events, {copy} copies of {len(compiled)}, span {span_ns} ns/copy',
          file=sys.stderr)


if __name__ == '__main__':
    main()
