/**
 * Training pairs for the relation pair reader (`relation-features.ts`), from the **tuning**
 * attributes only: `updates-tuning.jsonl`, `updates-tuning-2.jsonl` and the `dev` attributes of
 * `updates.jsonl`, their statement and update forms filled with their values (no question form,
 * no held-out attribute). B is a later statement of attribute X (an update form, or a statement
 * form with another wording); A is a statement of X with another value (positive) or a statement
 * of another attribute of the same holder, else of any (negative). One JSON line per pair with its
 * features and the two attributes, so `relation_train.py` can split by attribute.
 *
 *   pnpm --filter @svc/evals exec node --conditions=@svc/source --import tsx src/memory/pair-reader/relation-dump.ts > /tmp/relation-pairs.jsonl
 */
import { seededRandom } from '@svc/core';
import { cachedEncoder } from '../cached-embedder.js';
import { loadUpdateAttributes } from '../updates-data.js';
import { relationFeatures } from './relation-features.js';

const files = ['updates-tuning.jsonl', 'updates-tuning-2.jsonl', 'updates.jsonl'];
const attributes = files.flatMap((file) => loadUpdateAttributes(file).filter((a) => a.split === 'dev').map((a) => ({ ...a, file })));
const random = seededRandom(35);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const fill = (form: string, value: string) => form.replaceAll('{v}', value);

interface Pair { a: string; b: string; y: number; attrA: string; attrB: string; file: string; kind: 'update' | 'state' }
const pairs: Pair[] = [];
for (const x of attributes) {
  const others = attributes.filter((o) => o.attribute !== x.attribute);
  const sameHolder = others.filter((o) => o.holder === x.holder);
  for (const [kind, forms] of [['update', x.updates], ['state', x.states]] as const)
    for (const form of forms)
      for (const value of x.values) {
        const b = fill(form, value);
        for (let i = 0; i < 3; i++) {
          const states = kind === 'state' ? x.states.filter((s) => s !== form) : x.states;
          pairs.push({ a: fill(pick(states), pick(x.values.filter((v) => v !== value))), b, y: 1, attrA: x.attribute, attrB: x.attribute, file: x.file, kind });
        }
        for (let i = 0; i < 6; i++) {
          const y = pick(i < 4 && sameHolder.length > 0 ? sameHolder : others);
          pairs.push({ a: fill(pick(y.states), pick(y.values)), b, y: 0, attrA: y.attribute, attrB: x.attribute, file: x.file, kind });
        }
      }
}
const encoder = cachedEncoder();
for (let i = 0; i < pairs.length; i += 256) {
  const batch = pairs.slice(i, i + 256);
  const features = await relationFeatures(encoder, batch.map((p) => [p.a, p.b] as const));
  for (const [j, p] of batch.entries()) process.stdout.write(`${JSON.stringify({ ...p, f: features[j]!.map((v) => Math.round(v * 1e5) / 1e5) })}\n`);
}
await encoder.close();
