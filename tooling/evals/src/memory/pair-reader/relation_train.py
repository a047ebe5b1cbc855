"""
Fits the relation pair reader's head ("does B replace A?") over the topic-free features of
`relation-features.ts`, dumped by `relation-dump.ts` (tuning attributes only), and judges it with
folds split **by attribute** (a fold's attributes are never seen in its training pairs, so a
per-phrasing or per-topic template cannot carry over). Heads: logistic (L2, Newton) or one hidden
ReLU layer (Adam, L2). Prints per fold and head: AUC, and for each B with its first positive and
six negatives, what a floor and margin would link (right / wrong / none), beside rule 6's score
(statement plus frame cosine). With `--out`, fits the chosen head on every attribute and writes it.

  python3 relation_train.py PAIRS.jsonl [--hidden 0|8] [--l2 1.0] [--folds 6] [--exclude FILE] [--out HEAD.json]

`--exclude FILE` leaves one attribute file's attributes out of the fit (to score that file's grid
with a head that never saw it: `memory:unlinked --grid --reader HEAD.json`).
"""
import argparse, json
import numpy as np
from pairs import fit_logistic

p = argparse.ArgumentParser()
p.add_argument('pairs'); p.add_argument('--hidden', type=int, default=0); p.add_argument('--l2', type=float, default=1.0)
p.add_argument('--folds', type=int, default=6); p.add_argument('--exclude'); p.add_argument('--out'); p.add_argument('--seed', type=int, default=35)
args = p.parse_args()
rows = [json.loads(l) for l in open(args.pairs)]
if args.exclude: rows = [r for r in rows if r['file'] != args.exclude]
X = np.array([r['f'] for r in rows], dtype=np.float64); y = np.array([r['y'] for r in rows], dtype=np.float64)
attrs = sorted(set(r['attrB'] for r in rows))


def fit(X, y, hidden, l2, seed):
    mean, scale = X.mean(0), X.std(0) + 1e-6
    Z = (X - mean) / scale
    if hidden == 0:
        w, b = fit_logistic(Z, y, l2, 30)
        return dict(mean=mean, scale=scale, hidden=np.zeros((0, Z.shape[1])), hb=np.zeros(0), w=w, b=b)
    rng = np.random.default_rng(seed)
    W1 = rng.normal(0, 1 / np.sqrt(Z.shape[1]), (hidden, Z.shape[1])); b1 = np.zeros(hidden); w2 = rng.normal(0, 1 / np.sqrt(hidden), hidden); b2 = 0.0
    params = [W1, b1, w2, np.array([b2])]; m = [np.zeros_like(q) for q in params]; v = [np.zeros_like(q) for q in params]
    n = len(Z)
    for t in range(1, 1501):
        W1, b1, w2, b2 = params
        H = np.maximum(0, Z @ W1.T + b1); q = 1 / (1 + np.exp(-(H @ w2 + b2[0]))); d = (q - y) / n
        gw2 = H.T @ d + l2 / n * w2; gb2 = np.array([d.sum()]); dH = np.outer(d, w2) * (H > 0)
        gW1 = dH.T @ Z + l2 / n * W1; gb1 = dH.sum(0)
        for i, g in enumerate([gW1, gb1, gw2, gb2]):
            m[i] = 0.9 * m[i] + 0.1 * g; v[i] = 0.999 * v[i] + 0.001 * g * g
            params[i] = params[i] - 0.01 * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8)
    W1, b1, w2, b2 = params
    return dict(mean=mean, scale=scale, hidden=W1, hb=b1, w=w2, b=float(b2[0]))


def score(h, X):
    Z = (X - h['mean']) / h['scale']
    H = Z if len(h['hidden']) == 0 else np.maximum(0, Z @ h['hidden'].T + h['hb'])
    return 1 / (1 + np.exp(-(H @ h['w'] + h['b'])))


def auc(s, y):
    order = np.argsort(s); ranks = np.empty(len(s)); ranks[order] = np.arange(1, len(s) + 1)
    pos = y > 0.5; return (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())


def links(idx, s, floor, margin):
    """Per B: its first positive and its negatives; the top one linked at floor and margin."""
    groups = {}
    for i in idx: groups.setdefault((rows[i]['b'], rows[i]['kind']), []).append(i)
    right = wrong = none = 0
    for members in groups.values():
        pos = [i for i in members if y[i] > 0.5][:1]; cand = pos + [i for i in members if y[i] < 0.5]
        ranked = sorted(cand, key=lambda i: -s[i])
        if s[ranked[0]] < floor or (len(ranked) > 1 and s[ranked[0]] - s[ranked[1]] < margin): none += 1
        elif y[ranked[0]] > 0.5: right += 1
        else: wrong += 1
    return right, wrong, none


rng = np.random.default_rng(args.seed); order = rng.permutation(attrs); folds = [set(order[k::args.folds]) for k in range(args.folds)]
S = np.zeros(len(y)); rule6 = X[:, 0] + X[:, 1]
for k, held in enumerate(folds):
    train = np.array([i for i, r in enumerate(rows) if r['attrB'] not in held and r['attrA'] not in held])
    test = np.array([i for i, r in enumerate(rows) if r['attrB'] in held])
    h = fit(X[train], y[train], args.hidden, args.l2, args.seed); S[test] = score(h, X[test])
    print(f'fold {k}: {len(train)} train / {len(test)} held pairs; AUC reader {auc(S[test], y[test]):.3f}, rule 6 {auc(rule6[test], y[test]):.3f}')
allidx = np.arange(len(y))
print(f'all folds: AUC reader {auc(S, y):.3f}, rule 6 {auc(rule6, y):.3f}')
for kind in ('update', 'state'):
    idx = [i for i in allidx if rows[i]['kind'] == kind]
    for fl, mg in [(0.5, 0.2), (0.7, 0.3), (0.8, 0.4), (0.9, 0.5), (0.95, 0.5)]: print(f'  {kind} reader >= {fl}, {mg} ahead: right / wrong / none {links(idx, S, fl, mg)}')
    for fl, mg in [(0.5, 0.12), (0.8, 0.12), (1.0, 0.12)]: print(f'  {kind} rule 6 >= {fl}, {mg} ahead: {links(idx, rule6, fl, mg)}')
if args.out:
    h = fit(X, y, args.hidden, args.l2, args.seed)
    names = ['cosStatement', 'cosFrame', 'cosValue', 'swapAtoB', 'swapBtoA', 'swapGainA', 'swapGainB', 'frameAtoB', 'frameBtoA', 'valueInFrame', 'bothValued']
    r6 = lambda a: [round(float(x), 6) for x in a]
    json.dump({'id': f'minilm-relation-v1-h{args.hidden}' + (f'-no-{args.exclude}' if args.exclude else ''), 'features': names,
               'about': 'Does statement B replace stored statement A: a head over topic-free cosines of MiniLM views of the pair (tooling/evals/src/memory/pair-reader/relation-features.ts), fitted on templated pairs of the tuning attributes only.',
               'mean': r6(h['mean']), 'scale': r6(h['scale']), 'hidden': [r6(row) for row in h['hidden']], 'hiddenBias': r6(h['hb']), 'w': r6(h['w']), 'b': round(float(h['b']), 6)}, open(args.out, 'w'))
    print('wrote', args.out)
# Per feature AUC, and the reader where rule 6 (0.5, 0.12 ahead) links nothing.
names = ['cosStatement', 'cosFrame', 'cosValue', 'swapAtoB', 'swapBtoA', 'swapGainA', 'swapGainB', 'frameAtoB', 'frameBtoA', 'valueInFrame', 'bothValued']
print('feature AUCs:', ', '.join(f'{n} {auc(X[:, j], y):.3f}' for j, n in enumerate(names)))
groups = {}
for i in allidx: groups.setdefault((rows[i]['b'], rows[i]['kind']), []).append(i)
for fl, mg in [(0.5, 0.2), (0.7, 0.3), (0.8, 0.4), (0.9, 0.5)]:
    out = {'update': [0, 0, 0], 'state': [0, 0, 0]}
    for (b, kind), members in groups.items():
        cand = [i for i in members if y[i] > 0.5][:1] + [i for i in members if y[i] < 0.5]
        r = sorted(cand, key=lambda i: -rule6[i])
        if rule6[r[0]] >= 0.5 and rule6[r[0]] - rule6[r[1]] >= 0.12: continue
        s = sorted(cand, key=lambda i: -S[i])
        if S[s[0]] < fl or S[s[0]] - S[s[1]] < mg: out[kind][2] += 1
        elif y[s[0]] > 0.5: out[kind][0] += 1
        else: out[kind][1] += 1
    print(f'  where rule 6 links nothing, reader >= {fl}, {mg} ahead: right / wrong / none {out}')
