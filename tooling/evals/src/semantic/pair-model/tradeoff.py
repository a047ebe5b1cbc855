"""A trained GridHead's trade-off: PAWS held-out (all pairs and one per source) against
GPTCache's pairs kept (even half: trained on; odd half: not), among pairs the cosine and guard pass."""
import os, sys
import numpy as np, torch
from common import GridHead, States, read, scores

st = States([6])
model = GridHead(384, 32, 8)
model.load_state_dict(torch.load(sys.argv[1]))
sets = {}
for name in ('paws-heldout', 'paws-heldout-one', 'gptcache'):
    rows = read(name, st)
    sets[name] = (np.array([r['y'] for r in rows]), scores(model, rows, st), np.array([st.cosine(r['a'], r['b']) >= 0.85 and r['g'] == 1 for r in rows]))
yg, pg, gg = sets['gptcache']
even = np.arange(len(yg)) % 2 == 0
for t in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95):
    line = f't {t}:'
    for name in ('paws-heldout', 'paws-heldout-one'):
        y, p, g = sets[name]
        s = g & (p >= t)
        line += f' {name} NP {s[y == 0].mean():.3f} P {s[y == 1].mean():.3f};'
    line += f' GPT kept of gated: even {((pg >= t) & gg & even).sum() / (gg & even).sum():.3f} odd {((pg >= t) & gg & ~even).sum() / (gg & ~even).sum():.3f}'
    print(line)
