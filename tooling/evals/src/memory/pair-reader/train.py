"""
Trains the supersession pair reader: does statement B (a change) replace stored statement A?

Reads the sentences `dump.ts` wrote (tuning attributes only: `updates-tuning.jsonl` and the dev
attributes of `updates.jsonl`, every statement and update form filled with each value, with the
shared encoder's statement, frame and value vectors), builds pairs and fits a logistic model.
Positive: a statement of attribute X with one value, an update of X with another. Negative: a
statement of another attribute Y (as the user's other facts are), an update of X.
Features: the elementwise products of the two statement vectors and of the two frame vectors
(which dimensions agree: what the two are about), the statement, frame and value cosines and
statement + frame (rule 6's score). L2-regularised, fitted by Newton's method; seeded.

  python3 train.py SENTENCES.jsonl OUT.json [--only FILE_TAG] [--l2 1.0]

`--only tuning` / `--only dev` fits on one attribute group (to score the other group's updates in
the pipeline with a reader that never saw them); without it, on both (the shipped reader).
"""
import argparse, json
import numpy as np
from pairs import features, fit_logistic, load_sentences

p = argparse.ArgumentParser()
p.add_argument('sentences'); p.add_argument('out')
p.add_argument('--only', choices=['tuning', 'dev'])
p.add_argument('--l2', type=float, default=1.0)
p.add_argument('--negatives', type=int, default=18)
args = p.parse_args()

rows = load_sentences(args.sentences)
if args.only: rows = [r for r in rows if r['source'] == args.only]
rng = np.random.default_rng(35)
states = [r for r in rows if r['kind'] == 'states']
updates = [r for r in rows if r['kind'] == 'updates']

X, y = [], []
for u in updates:
    pos = [s for s in states if s['attribute'] == u['attribute'] and s['value'] != u['value']]
    neg = [s for s in states if s['attribute'] != u['attribute']]
    for i in rng.choice(len(pos), size=min(6, len(pos)), replace=False): X.append(features(pos[i], u)); y.append(1.0)
    for i in rng.choice(len(neg), size=args.negatives, replace=False): X.append(features(neg[i], u)); y.append(0.0)
X, y = np.array(X), np.array(y)
mean, scale = X.mean(0), X.std(0) + 1e-6
weights, bias = fit_logistic((X - mean) / scale, y, args.l2, 25)
q = 1 / (1 + np.exp(-((X - mean) / scale @ weights + bias)))
print(f'{len(y)} pairs ({int(y.sum())} positive), {len(set(r["attribute"] for r in rows))} attributes; training accuracy {((q > 0.5) == (y > 0.5)).mean():.3f}')
json.dump({
    'id': 'minilm-supersede-v1' + (f'-{args.only}' if args.only else ''),
    'about': 'Does statement B replace stored statement A: logistic over [stmt(A)*stmt(B), frame(A)*frame(B), cos stmt, cos frame, cos value, cos stmt + cos frame] (MiniLM vectors). Trained on templated pairs of the tuning attributes only (tooling/evals/src/memory/pair-reader).',
    'mean': [round(float(x), 6) for x in mean], 'scale': [round(float(x), 6) for x in scale],
    'w': [round(float(x), 6) for x in weights], 'b': round(float(bias), 6),
}, open(args.out, 'w'))
