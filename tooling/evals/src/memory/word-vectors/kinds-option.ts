import { createValueKinds, sameKindMatcher, type ValueKinds, type ValueMatcher } from '@svc/memory';
import type { Embedder } from '@svc/semantic';
import { createWordVectorKinds, dot, eitherKinds, phraseVector } from './word-vector-kinds.js';
import { loadWordTable, type WordTable } from './word-table.js';

/** How the word-vector typer is combined with the shipped MiniLM one. */
const MODES = ['alone', 'after-minilm', 'before-minilm'] as const;

/**
 * The value typer an evaluation's `--kinds` names (issue #35, twentieth pass), undefined for the
 * shipped one: `wv:<table>:<floor>:<margin>:<mode>`, mode `alone` (the word vectors replace MiniLM),
 * `after-minilm` (they type what MiniLM leaves untyped) or `before-minilm` (the other way round);
 * `minilm` names the shipped typer itself (for `--change-kinds`, which is off by default).
 * Days, numbers and the gazetteer come first in every mode.
 *
 *   --kinds wv:/tmp/glove-100000.bin:0.4:0.05:after-minilm
 */
export function kindsOption(spec: string | undefined, embedder: Embedder): ValueKinds | undefined {
  if (spec === undefined || spec === 'shipped') return undefined;
  if (spec === 'minilm') return createValueKinds(embedder);
  const [scheme, path, floor, margin, mode] = spec.split(':');
  const known = MODES.find((m) => m === mode);
  if (scheme !== 'wv' || !path || known === undefined) throw new Error(`--kinds wv:<table>:<floor>:<margin>:<${MODES.join('|')}>, not ${spec}`);
  const glove = createWordVectorKinds(loadWordTable(path), { floor: Number(floor), margin: Number(margin) });
  if (known === 'alone') return glove;
  const shipped = createValueKinds(embedder);
  return known === 'after-minilm' ? eitherKinds(shipped, glove) : eitherKinds(glove, shipped);
}

/**
 * A typer that also asks `other` and records each value pair (rule 7 asks for pairs: values 2i
 * and 2i+1) that one of the two types as one kind and the other does not. For tuning files only:
 * the pairs are printed.
 */
export function pairDifferences(used: ValueKinds, other: ValueKinds): { kinds: ValueKinds; differences: string[] } {
  const differences: string[] = [];
  const kinds: ValueKinds = {
    async kindsOf(values) {
      const [mine, theirs] = await Promise.all([used.kindsOf(values), other.kindsOf(values)]);
      for (let i = 0; i + 1 < values.length; i += 2) {
        const [a, b] = [mine[i] !== undefined && mine[i] === mine[i + 1], theirs[i] !== undefined && theirs[i] === theirs[i + 1]];
        if (a !== b) differences.push(`${a ? 'only this typer' : 'only shipped'}: "${values[i]}" ${mine[i]}/${theirs[i]} ~ "${values[i + 1]}" ${mine[i + 1]}/${theirs[i + 1]}`);
      }
      return mine;
    },
  };
  return { kinds, differences };
}

/** The cosine a matcher reads: GloVe's (both values in its vocabulary), MiniLM's, or their mean (GloVe's part needs both). */
type Cosine = 'wvcos' | 'mlcos' | 'mixcos';

/**
 * The matcher an evaluation's `--change-kinds` names for rule 8's typed half (off when undefined):
 * `minilm` or `wv:...` (a typer, as `kindsOption`: the same kind), or `<wvcos|mlcos|mixcos>:<table>:<floor>`
 * (the direct value-vs-value cosine at least `floor`).
 */
export function matcherOption(spec: string | undefined, embedder: Embedder): ValueMatcher | undefined {
  const [scheme, path, floor] = spec?.split(':') ?? [];
  if (scheme !== 'wvcos' && scheme !== 'mlcos' && scheme !== 'mixcos') {
    const kinds = kindsOption(spec, embedder);
    return kinds && sameKindMatcher(kinds);
  }
  if (!path || floor === undefined) throw new Error(`--change-kinds ${scheme}:<table>:<floor>, not ${spec}`);
  return cosineMatcher(scheme, loadWordTable(path), { embedder, floor: Number(floor) });
}

function cosineMatcher(cosine: Cosine, table: WordTable, options: { embedder: Embedder; floor: number }): ValueMatcher {
  return async (value, others) => {
    const glove = [value, ...others].map((v) => phraseVector(table, v));
    const minilm = cosine === 'wvcos' ? [] : await options.embedder.embed([value, ...others]);
    return others.map((_, j) => {
      const [a, b] = [glove[0], glove[j + 1]];
      const wv = a && b ? dot(a, b) : undefined;
      const ml = cosine === 'wvcos' ? undefined : dot(minilm[0]!, minilm[j + 1]!);
      const score = cosine === 'wvcos' ? wv : cosine === 'mlcos' ? ml : wv === undefined ? undefined : (wv + ml!) / 2;
      return score !== undefined && score >= options.floor;
    });
  };
}
