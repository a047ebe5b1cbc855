import { fnv } from '@svc/semantic/training';
import { wordTokens } from '@svc/semantic/training';
import type { QqpPair } from './dataset.js';

/** A question as the split sees it: its words, so spelling variants of one question stay together. */
const questionKey = (text: string): string => wordTokens(text).join(' ');

/**
 * Union-find over texts: `join` puts two texts in one group (the smaller text stays the root),
 * `root` names a text's group.
 */
export function textGroups(): { join(a: string, b: string): void; root(x: string): string } {
  const parent = new Map<string, string>();
  const root = (x: string): string => {
    let top = x;
    while (parent.get(top) !== top) top = parent.get(top)!;
    for (let node = x; node !== top; ) {
      const next = parent.get(node)!;
      parent.set(node, top);
      node = next;
    }
    return top;
  };
  return {
    root,
    join(a, b) {
      if (!parent.has(a)) parent.set(a, a);
      if (!parent.has(b)) parent.set(b, b);
      const [ra, rb] = [root(a), root(b)];
      if (ra === rb) return;
      const [smaller, larger] = ra < rb ? [ra, rb] : [rb, ra];
      parent.set(larger, smaller);
    },
  };
}

/**
 * Splits QQP by question: pairs sharing a question (directly or through other pairs) form one
 * connected component, and each component goes wholly to `train` or `heldOut` by a hash of its
 * smallest question, so no question occurs on both sides. About half of the pairs land on each side.
 */
export function splitByQuestion(pairs: readonly QqpPair[]): { train: QqpPair[]; heldOut: QqpPair[] } {
  const groups = textGroups();
  const keys = pairs.map((p) => [questionKey(p.a), questionKey(p.b)] as const);
  for (const [a, b] of keys) groups.join(a, b);
  const train: QqpPair[] = [];
  const heldOut: QqpPair[] = [];
  for (const [i, [a]] of keys.entries()) (fnv(groups.root(a)) % 2 === 0 ? train : heldOut).push(pairs[i]!);
  return { train, heldOut };
}
