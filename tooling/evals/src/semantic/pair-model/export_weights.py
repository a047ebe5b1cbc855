"""Writes a trained GridHead (train.py's OUT) as the JSON the encoder ships
(packages/encoder/src/pair/minilm-pair-v1.json): the projection the encoder's graph applies to
one block's token states, and the head @svc/semantic's scorePair runs. Also writes golden scores
of a few held-out pairs for the TypeScript test. Usage: export_weights.py CHECKPOINT THRESHOLD"""
import json, os, sys
import torch
from common import DATA, GridHead, States, read, scores

LAYERS = [int(x) for x in os.environ.get('LAYERS', '3').split(',')]
D, H = int(os.environ.get('D', '32')), int(os.environ.get('H', '8'))
ckpt, threshold = sys.argv[1], float(sys.argv[2])
model = GridHead(384 * len(LAYERS), D, H)
model.load_state_dict(torch.load(ckpt))
sd = {k: v.detach() for k, v in model.state_dict().items()}
r = lambda t: [float(f'{x:.6g}') for x in t.flatten().tolist()]
dense = lambda name: {'w': r(sd[name + '.weight']), 'b': r(sd[name + '.bias'])}
about = os.environ.get('ABOUT', '')
out = {
    'id': os.environ.get('ID', 'minilm-pair-v1'),
    'about': about,
    'layer': LAYERS[0],
    'threshold': threshold,
    'minOverlap': float(os.environ.get('MIN_OVERLAP', '0')),
    'projection': dense('proj'),
    'head': {'d': D, 'h': H, 'conv1': dense('conv1'), 'conv2': dense('conv2'), 'out1': dense('out1'), 'out2': dense('out2')},
}
root = os.path.abspath(os.path.join(os.path.dirname(__file__), *['..'] * 5))
path = os.path.join(root, 'packages/encoder/src/pair/minilm-pair-v1.json')
json.dump(out, open(path, 'w'), separators=(',', ':'))
print('wrote', path, os.path.getsize(path), 'bytes')

# Golden scores: what PyTorch gives a few held-out pairs (PAWS, GPTCache, near misses), for the
# encoder's test that runs the same texts through the shipped graph and scorer.
states = States(LAYERS)
golden = []
for name, take in (('paws-heldout-one', 6), ('gptcache', 3), ('near', 3)):
    rows = read(name, states)[:take]
    for row, p in zip(rows, scores(model, rows, states)):
        golden.append({'a': row['a'], 'b': row['b'], 'score': round(float(p), 5)})
gpath = os.path.join(root, 'packages/encoder/src/pair/pair-golden.json')
json.dump(golden, open(gpath, 'w'), indent=1)
print('wrote', gpath)
