import { fnv } from '@svc/semantic/training';
import { wordTokens } from '@svc/semantic/training';
import type { QqpPair } from './dataset.js';

/** A question as the split sees it: its words, so spelling variants of one question stay together. */
const questionKey = (text: string): string => wordTokens(text).join(' ');

/**
 * Splits QQP by question: pairs sharing a question (directly or through other pairs) form one
 * connected component, and each component goes wholly to `train` or `heldOut` by a hash of its
 * smallest question, so no question occurs on both sides. About half of the pairs land on each side.
 */
export function splitByQuestion(pairs: readonly QqpPair[]): { train: QqpPair[]; heldOut: QqpPair[] } {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let node = x; node !== root; ) {
      const next = parent.get(node)!;
      parent.set(node, root);
      node = next;
    }
    return root;
  };
  const keys = pairs.map((p) => [questionKey(p.a), questionKey(p.b)] as const);
  for (const [a, b] of keys) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const [ra, rb] = [find(a), find(b)];
    if (ra === rb) continue;
    const [smaller, larger] = ra < rb ? [ra, rb] : [rb, ra];
    parent.set(larger, smaller); // the smaller question stays the root
  }
  const train: QqpPair[] = [];
  const heldOut: QqpPair[] = [];
  for (const [i, [a]] of keys.entries()) (fnv(find(a)) % 2 === 0 ? train : heldOut).push(pairs[i]!);
  return { train, heldOut };
}
