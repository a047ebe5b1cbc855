"""What the supersession pair reader reads of a pair (A stored, B the change): shared by train.py and cross_group.py."""
import json
import numpy as np


def load_sentences(path):
    """The sentences dump.ts wrote, with their vectors as arrays."""
    rows = [json.loads(line) for line in open(path)]
    for r in rows:
        for k in ('stmt', 'frame', 'valueVec'): r[k] = np.array(r[k], dtype=np.float64)
    return rows


def features(a, b):
    """Elementwise products of the statement vectors and of the frame vectors, then the three cosines and rule 6's score."""
    cs, cf, cv = a['stmt'] @ b['stmt'], a['frame'] @ b['frame'], a['valueVec'] @ b['valueVec']
    return np.concatenate([a['stmt'] * b['stmt'], a['frame'] * b['frame'], [cs, cf, cv, cs + cf]])
