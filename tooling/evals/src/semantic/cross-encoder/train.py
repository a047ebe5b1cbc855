"""Trains the adapter on QQP's training half (export-pairs.ts writes it). Env: RANK, EPOCHS, BS, LR, OUT."""
import sys, time, random, math, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import *
r = int(os.environ.get('RANK', '16')); epochs = float(os.environ.get('EPOCHS', '1')); bs = int(os.environ.get('BS', '32')); lr = float(os.environ.get('LR', '3e-4'))
out = os.environ.get('OUT', os.path.join(DATA, 'adapter.pt')); limit = int(os.environ.get('LIMIT', '0'))
sd = load_st(MODEL); model = Bert(sd, r=r, alpha=2 * max(r, 1))
rows = read('qqp-train.jsonl')
if limit: rows = rows[:limit]
params = [p for p in model.parameters() if p.requires_grad]
print('trainable', sum(p.numel() for p in params), 'rows', len(rows), flush=True)
opt = torch.optim.AdamW(params, lr=lr, weight_decay=0.01)
steps = int(math.ceil(len(rows) / bs) * epochs); warm = max(1, steps // 20)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1, (s + 1) / warm) * max(0.0, (steps - s) / max(1, steps - warm)))
step = 0; t0 = time.time(); run = 0
while step < steps:
    random.shuffle(rows)
    chunks = []
    for c in range(0, len(rows), bs * 50):
        block = sorted(rows[c:c + bs * 50], key=lambda x: len(x['ia']) + len(x['ib']))
        chunks += [block[i:i + bs] for i in range(0, len(block), bs)]
    random.shuffle(chunks)
    for batch in chunks:
        if step >= steps: break
        model.train()
        seqs = [pair(x['ia'], x['ib']) if random.random() < 0.5 else pair(x['ib'], x['ia']) for x in batch]
        ids, tt, mask = pad([s[0] for s in seqs], [s[1] for s in seqs])
        y = torch.tensor([float(x['y']) for x in batch])
        loss = F.binary_cross_entropy_with_logits(model.score(ids, tt, mask), y)
        opt.zero_grad(); loss.backward(); opt.step(); sched.step(); step += 1
        run = 0.98 * run + 0.02 * loss.item() if step > 1 else loss.item()
        if step % 50 == 0: print(f'step {step}/{steps} loss {run:.4f} {time.time() - t0:.0f}s', flush=True)
torch.save({n: p.detach().clone() for n, p in model.named_parameters() if p.requires_grad}, out)
print('saved', out, time.time() - t0, flush=True)
