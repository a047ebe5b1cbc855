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
import { cachedEncoder } from '../cached-embedder.js';
import { relationFeatures } from './relation-features.js';
import { templatedPairs } from './relation-pairs.js';

const pairs = templatedPairs();
const encoder = cachedEncoder();
for (let i = 0; i < pairs.length; i += 256) {
  const batch = pairs.slice(i, i + 256);
  const features = await relationFeatures(encoder, batch.map((p) => [p.a, p.b] as const));
  for (const [j, p] of batch.entries()) process.stdout.write(`${JSON.stringify({ ...p, f: features[j]!.map((v) => Math.round(v * 1e5) / 1e5) })}\n`);
}
await encoder.close();
