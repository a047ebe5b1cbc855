"""Scratch: a trained GridHead's operating points on PAWS held-out and GPTCache, with the word-piece overlap gate."""
import collections, os, sys
import numpy as np, torch
from common import GridHead, States, read, scores

LAYERS = [int(x) for x in os.environ.get('LAYERS', '6').split(',')]
st = States(LAYERS)
model = GridHead(384 * len(LAYERS), int(os.environ.get('D', '32')), int(os.environ.get('H', '8')))
model.load_state_dict(torch.load(sys.argv[1]))


def overlap(r):
    a, b = collections.Counter(r['ia'][1:-1]), collections.Counter(r['ib'][1:-1])
    return sum((a & b).values()) / max(sum(a.values()), sum(b.values()))


sets = {}
for name in ('paws-heldout', 'paws-heldout-one', 'gptcache'):
    rows = read(name, st)
    p = scores(model, rows, st)
    sets[name] = (np.array([r['y'] for r in rows]), p, np.array([st.cosine(r['a'], r['b']) >= 0.85 and r['g'] == 1 for r in rows]), np.array([overlap(r) for r in rows]))
yh, ph, gh, oh = sets['paws-heldout']
for gate in (0.0, 0.75, 0.8, 0.85):
    for t in (0.5, 0.7, 0.8, 0.9, 0.95, 0.97):
        line = f'overlap gate {gate} t {t}:'
        for name, (y, p, g, o) in sets.items():
            served = g & ((o < gate) | (p >= t))
            if name.startswith('paws'):
                line += f' {name} NP {served[y == 0].mean():.3f} P {served[y == 1].mean():.3f};'
            else:
                line += f' GPT served {served.sum()} of {g.sum()} gated'
        print(line)
