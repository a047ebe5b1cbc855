import type { QqpPair } from '../dataset.js';
import type { Answered } from './client.js';
import { asked, type LiveSet } from './pairs.js';

type Outcome = 'miss' | 'own a' | 'another question';

function outcome(pair: QqpPair, b: Answered, byId: ReadonlyMap<string, string>): { kind: Outcome; source?: string } {
  if (!b.cacheType) return { kind: 'miss' };
  const source = b.cacheType === 'exact' ? b.question : byId.get(b.cachedRequestId ?? '');
  if (source === undefined) return { kind: 'another question' };
  return { kind: asked(source) === asked(pair.a) ? 'own a' : 'another question', source };
}

/**
 * Where a protocol run and the pair-by-pair figure part: each `b` by what pair by pair decided
 * (hit its `a` or not) and what the run did (missed, served its own `a`, served another question),
 * with how many were right (lenient: its own `a` on a duplicate pair, the same text, or a labelled duplicate).
 */
export function breakdown(set: LiveSet, pairs: readonly QqpPair[], offline: readonly boolean[], run: { a: Answered[]; b: Answered[] }): string[] {
  const byId = new Map([...run.a, ...run.b].map((x) => [x.requestId, x.question]));
  const cells = new Map<string, { n: number; right: number }>();
  for (const [i, pair] of pairs.entries()) {
    const found = outcome(pair, run.b[i]!, byId);
    const right = found.source !== undefined && ((found.kind === 'own a' && pair.duplicate) || set.duplicateOf(found.source, pair.b));
    const key = `${offline[i] ? 'hit' : 'miss'} | ${found.kind}`;
    const cell = cells.get(key) ?? { n: 0, right: 0 };
    cell.n++;
    if (right) cell.right++;
    cells.set(key, cell);
  }
  const lines = ['| pair by pair | the run | `b`s | right (lenient) |', '|---|---|---|---|'];
  for (const [key, cell] of [...cells].sort()) lines.push(`| ${key} | ${cell.n} | ${cell.right} |`);
  return lines;
}

/** A run's answers to every `a` and every `b`, in pair order. */
type Run = { a: Answered[]; b: Answered[] };

/** The question that answered each question of a run (its own text for an exact hit), or undefined on a miss. */
function sourceOf(run: Run): (x: Answered) => string | undefined {
  const byId = new Map([...run.a, ...run.b].map((x) => [x.requestId, x.question]));
  return (x) => (x.cacheType === undefined ? undefined : x.cacheType === 'exact' ? x.question : (byId.get(x.cachedRequestId ?? '') ?? '(unknown)'));
}

/** The questions the in-process run and a live run of the same protocol answered differently (hit or miss, or from another question), with both cosines. */
export function differences(offline: Run, live: Run): string[] {
  const [inProcess, through] = [sourceOf(offline), sourceOf(live)];
  const lines: string[] = [];
  for (const side of ['a', 'b'] as const) {
    for (const [i, o] of offline[side].entries()) {
      const l = live[side][i]!;
      if (inProcess(o) === through(l)) continue;
      lines.push(`- ${side} of pair ${i}: ${JSON.stringify(o.question)}; in process ${JSON.stringify(inProcess(o) ?? 'miss')} (cosine ${o.similarity?.toFixed(4)}), live ${JSON.stringify(through(l) ?? 'miss')} (cosine ${l.similarity?.toFixed(4)})`);
    }
  }
  return lines;
}
