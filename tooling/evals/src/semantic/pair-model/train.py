"""Trains the pair model on PAWS dev's training half (split by source sentence), optionally with
GPTCache's and QQP's training-half pairs, and reports the held-out figures. README.md here."""
import os, sys, time
import numpy as np, torch, torch.nn.functional as F
from common import DATA, GridHead, PairHead, States, auc, batches, read, scores

torch.set_num_threads(int(os.environ.get('THREADS', '2')))
torch.manual_seed(int(os.environ.get('SEED', '0'))); np.random.seed(int(os.environ.get('SEED', '0')))
LAYERS = [int(x) for x in os.environ.get('LAYERS', '6').split(',')]
D, H = int(os.environ.get('D', '32')), int(os.environ.get('H', '32'))
EPOCHS, LR, BS = int(os.environ.get('EPOCHS', '20')), float(os.environ.get('LR', '2e-3')), int(os.environ.get('BS', '32'))
EXTRA = [x for x in os.environ.get('EXTRA', '').split(',') if x]
COS = float(os.environ.get('COS', '0.85'))
EXTRA_WEIGHT = float(os.environ.get('EXTRA_WEIGHT', '1'))

states = States(LAYERS)
train = read('paws-train', states)
for r in train:
    r['src'] = 'paws'
for name in EXTRA:  # e.g. gptcache-even: paraphrase positives that reword whole phrases
    rows = read(name.split('-')[0], states)
    train += rows[0::2] if name.endswith('-even') else rows
held, one, gpt, near = (read(n, states) for n in ('paws-heldout', 'paws-heldout-one', 'gptcache', 'near'))
model = GridHead(384 * len(LAYERS), D, H) if os.environ.get('MODEL') == 'grid' else PairHead(384 * len(LAYERS), D, H)
opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
steps = EPOCHS * ((len(train) + BS - 1) // BS)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=LR, total_steps=steps, pct_start=0.1)


def report(tag):
    ph = scores(model, held, states)
    yh = np.array([r['y'] for r in held])
    gate = np.array([r['g'] == 1 and states.cosine(r['a'], r['b']) >= COS for r in held])
    # threshold: 5% of the held-out non-paraphrases that pass the gate
    neg = np.sort(ph[(yh == 0)])
    t = np.quantile(neg, 0.95)
    fp = ((ph >= t) & gate & (yh == 0)).sum() / (yh == 0).sum()
    tp = ((ph >= t) & gate & (yh == 1)).sum() / (yh == 1).sum()
    pg = scores(model, gpt, states)
    po = scores(model, one, states); yo = np.array([r['y'] for r in one])
    go = np.array([r['g'] == 1 and states.cosine(r['a'], r['b']) >= COS for r in one])
    line = f'{tag}: held-out AUC {auc(yh, ph):.3f}; at t={t:.3f} (5% of negatives): answered NP {fp:.3f} P {tp:.3f} | one-per-source NP {((po >= t) & go & (yo == 0)).mean() / (yo == 0).mean():.3f} P {((po >= t) & go & (yo == 1)).mean() / (yo == 1).mean():.3f} | GPTCache kept {(pg >= t).mean():.3f}'
    for q in (0.5, 0.2, 0.1):
        line += f' | t={q}: NP {((ph >= q) & gate & (yh == 0)).sum() / (yh == 0).sum():.3f} P {((ph >= q) & gate & (yh == 1)).sum() / (yh == 1).sum():.3f} GPT {(pg >= q).mean():.3f}'
    print(line, flush=True)


t0 = time.time()
for epoch in range(EPOCHS):
    total = 0
    for xa, ma, xb, mb, cos, same, y, srcs in batches(train, states, BS, shuffle=True, swap=True, sources=True):
        # EXTRA pairs (all paraphrases) count EXTRA_WEIGHT each, so PAWS's word-order labels lead
        loss = F.binary_cross_entropy_with_logits(model(xa, ma, xb, mb, cos, same), y, weight=torch.tensor([1.0 if src == 'paws' else EXTRA_WEIGHT for src in srcs]))
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
        total += loss.item() * len(y)
    if epoch % 3 == 2 or epoch == EPOCHS - 1:
        report(f'epoch {epoch + 1} loss {total / len(train):.3f} {time.time() - t0:.0f}s')
torch.save(model.state_dict(), os.path.join(DATA, os.environ.get('OUT', 'pair-head.pt')))
