"""
Does the supersession pair reader generalise to attributes it never saw? Fits on one group of
tuning attributes (`train.py --only tuning` / `--only dev`) and scores the other group's updates:
each update of attribute X against eight stored facts of its holder, one statement of X with
another value (the fact it replaces) and seven statements of other attributes. A link is made
when the best score reaches the threshold and leads the next by the margin. Compared with rule 6's
score (statement cosine + frame cosine, >= 0.5 and 0.12 ahead), and, where rule 6 links nothing,
what the reader adds. Prints [right, wrong, none] per setting.

  python3 cross_group.py SENTENCES.jsonl READER-tuning.json READER-dev.json
"""
import json, sys
import numpy as np
from pairs import features, load_sentences

rows = load_sentences(sys.argv[1])
readers = {'tuning': json.load(open(sys.argv[2])), 'dev': json.load(open(sys.argv[3]))}

def probability(m, F):
    return 1 / (1 + np.exp(-(((F - np.array(m['mean'])) / np.array(m['scale'])) @ np.array(m['w']) + m['b'])))

def decide(scores, threshold, margin, tally, key):
    order = np.argsort(-scores)
    slot = tally.setdefault(key, [0, 0, 0])
    if scores[order[0]] >= threshold and scores[order[0]] - scores[order[1]] >= margin: slot[0 if order[0] == 0 else 1] += 1
    else: slot[2] += 1

rng = np.random.default_rng(7)
every_state = [r for r in rows if r['kind'] == 'states']
GRID = [(0.5, 0.2), (0.7, 0.3), (0.8, 0.4), (0.9, 0.5)]
for train, test in [('tuning', 'dev'), ('dev', 'tuning')]:
    alone, after = {}, {}
    for u in [r for r in rows if r['source'] == test and r['kind'] == 'updates']:
        for _ in range(3):
            same = [s for s in every_state if s['attribute'] == u['attribute'] and s['value'] != u['value']]
            others = [s for s in every_state if s['attribute'] != u['attribute'] and s['holder'] == u['holder']] or [s for s in every_state if s['attribute'] != u['attribute']]
            stored = [same[rng.integers(len(same))]] + [others[i] for i in rng.choice(len(others), 7, replace=False)]
            F = np.array([features(s, u) for s in stored])
            p = probability(readers[train], F)
            decide(F[:, -1], 0.5, 0.12, alone, 'rule 6')
            for threshold, margin in GRID: decide(p, threshold, margin, alone, f'reader {threshold}/{margin}')
            order = np.argsort(-F[:, -1])
            if F[order[0], -1] >= 0.5 and F[order[0], -1] - F[order[1], -1] >= 0.12: continue
            for threshold, margin in GRID: decide(p, threshold, margin, after, f'reader {threshold}/{margin}')
    print(f'fitted on {train}, scored on {test}: alone {alone}')
    print(f'  where rule 6 links nothing: {after}')
