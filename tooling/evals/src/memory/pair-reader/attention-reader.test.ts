import { describe, expect, it } from 'vitest';
import { type AttentionHead, attentionScore, isAttentionHead } from './attention-reader.js';

/** A tiny head (4 dimensions, 2 units) and its score of one pair, computed by `attention_train.py`'s numpy forward pass. */
const head: AttentionHead = {
  id: "fixture",
  mean: [-0.056, -0.034, 0.057, -0.043],
  std: [0.964, 1.009, 0.825, 0.673],
  Wf: [[-0.772, -0.508], [-0.547, 0.187], [-0.174, 0.089], [0.59, 0.601]],
  bf: [0.333, -0.316],
  Wp: [[-0.528, -0.57], [-0.241, -0.036], [-0.681, -0.794], [0.214, -1.296]],
  bp: [-0.124, 0.298],
  Wg: [[-0.69, -0.779], [-0.532, 0.454], [-0.091, -1.309], [-0.296, 0.71], [0.689, 0.441], [-0.167, -1.291], [0.119, -0.123], [0.054, 1.08]],
  bg: [0.129, 0.193],
  Wh: [[0.424, -0.18], [-0.465, -0.516], [0.537, 0.353], [-0.343, 0.807], [0.129, -0.938], [0.424, -0.098], [-0.93, 0.361], [-0.241, -0.275]],
  bh: [0.413, -1.535],
  Wo: [[-0.894, -0.297, 0.174, -0.466, -0.698], [-0.737, -0.082, 0.473, -1.015, -1.456]],
  bo: [-0.208, -0.267, -0.636, 0.428, 0.563],
};
const a = [[-0.354, -0.132, 0.364, -0.087], [-0.444, -0.705, 1.205, 0.775], [-1.053, -0.737, 0.409, -0.412]];
const b = [[0.011, 0.57, 0.09, -0.09], [-0.332, -0.06, 0.271, 1.214]];
const pieces = (rows: number[][]) => ({ n: rows.length, states: Float32Array.from(rows.flat()) });

describe('attentionScore', () => {
  it('matches the numpy forward pass it was trained with', () => {
    expect(attentionScore(head, pieces(a), pieces(b))).toBeCloseTo(0.295044, 5);
  });

  it('reads the pair in order: A stored, B newer', () => {
    expect(attentionScore(head, pieces(b), pieces(a))).toBeCloseTo(0.605396, 5);
  });

  it('tells an attention head from the relation head by its fields', () => {
    expect(isAttentionHead(head)).toBe(true);
    expect(isAttentionHead({ id: 'relation', mean: [], scale: [], hidden: [], hiddenBias: [], w: [], b: 0 })).toBe(false);
  });
});
