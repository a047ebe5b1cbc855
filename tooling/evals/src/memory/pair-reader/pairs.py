"""What the supersession pair reader reads of a pair (A stored, B the change), and its logistic fit: shared by train.py, cross_group.py and relation_train.py."""
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


def fit_logistic(Z, y, l2, steps):
    """L2-regularised logistic regression by Newton steps over standardised inputs Z (no bias column; the bias is not regularised): (weights, bias)."""
    A = np.hstack([Z, np.ones((len(Z), 1))]); w = np.zeros(A.shape[1]); reg = np.full(A.shape[1], l2); reg[-1] = 0.0
    for _ in range(steps):
        q = 1 / (1 + np.exp(-(A @ w)))
        grad = A.T @ (q - y) + reg * w
        hess = (A * (q * (1 - q))[:, None]).T @ A + np.diag(reg)
        w -= np.linalg.solve(hess, grad)
    return w[:-1], w[-1]
