#!/usr/bin/env python3
"""Exclusive instructions of two callgrind windows (request-instructions.sh) per request, by category:
GC, V8's compilers, JSON, thread messaging (structured clone), JIT code, the rest.
   request-instructions-categories.py <before cg file> <after cg file> <requests>"""
import re
import subprocess
import sys

CATEGORIES = [
    ('gc', r'Marking|MarkCompact|Sweeper|Scaveng|IteratePointers|Evacuat|RememberedSet|Heap::|MinorM|SlotSet|ShouldVisit|SizeFromMap|FreeList|MemoryAllocator|GCTracer|IncrementalMarking|WriteBarrier|RecordWrite'),
    ('compile', r'compiler::|Compil|turboshaft|maglev|Maglev|Bytecode|Parser|Scanner|aseline|Deoptimiz|interpreter::'),
    ('json', r'Json|JSON'),
    ('messaging', r'ValueSerializer|ValueDeserializer|MessagePort|worker::|Message::'),
    ('jit-code', r'\?\?\?:0x|\[\?\?\?\]'),
]


def categories(path):
    out = subprocess.run(['callgrind_annotate', '--inclusive=no', '--threshold=100', path], capture_output=True, text=True, check=True).stdout
    sums = {}
    for line in out.splitlines():
        m = re.match(r'\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)', line)
        if not m:
            continue
        ir, fn = int(m.group(1).replace(',', '')), m.group(2)
        if 'PROGRAM TOTALS' in fn:
            sums['total'] = ir
            continue
        if ir == sums.get('total'):
            continue  # the frames every instruction runs below (main, the event loop)
        kind = next((name for name, pattern in CATEGORIES if re.search(pattern, fn)), 'other')
        sums[kind] = sums.get(kind, 0) + ir
    return sums


before, after, n = categories(sys.argv[1]), categories(sys.argv[2]), float(sys.argv[3])
print(f"{'':10s} {'before':>10s} {'after':>10s} {'change':>9s}  (instructions a request)")
for kind in ['total', 'gc', 'compile', 'json', 'messaging', 'jit-code', 'other']:
    b, a = before.get(kind, 0) / n, after.get(kind, 0) / n
    print(f'{kind:10s} {b:10,.0f} {a:10,.0f} {a - b:+9,.0f}')
