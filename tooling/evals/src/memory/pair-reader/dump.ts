/**
 * Training data for the supersession pair reader (`packages/memory/src/supersession-reader.ts`):
 * every statement and update form of the **tuning** attributes (`updates-tuning.jsonl`, and the
 * `dev` attributes of `updates.jsonl`) filled with each of their values, with the shared
 * encoder's vectors of the statement (`statementCore`), of its frame (`subjectFrame`) and of its
 * value (`valuePhrase`). Held-out (`test`) attributes and every question form are never read.
 * The pairs themselves are built by `train.py`.
 *
 *   pnpm --filter @svc/evals exec node --conditions=@svc/source --import tsx src/memory/pair-reader/dump.ts > /tmp/sentences.jsonl
 */
import { createSentenceEncoder } from '@svc/encoder';
import { statementCore, subjectFrame, valuePhrase } from '@svc/memory';
import { loadUpdateAttributes } from '../updates-data.js';

const attributes = [
  ...loadUpdateAttributes('updates-tuning.jsonl').map((a) => ({ ...a, source: 'tuning' })),
  ...loadUpdateAttributes('updates.jsonl').map((a) => ({ ...a, source: 'dev' })),
].filter((a) => a.split === 'dev');
const rows = attributes.flatMap((a) =>
  (['states', 'updates'] as const).flatMap((kind) => a[kind].flatMap((form) => a.values.map((value) => ({ source: a.source, attribute: a.attribute, holder: a.holder, kind, value, form, text: form.replaceAll('{v}', value) })))),
);
const encoder = createSentenceEncoder({ cacheSize: 0 });
const round = (v: Float32Array) => Array.from(v, (x) => Math.round(x * 1e5) / 1e5);
for (let i = 0; i < rows.length; i += 64) {
  const batch = rows.slice(i, i + 64);
  const [stmt, frame, value] = await Promise.all([
    encoder.embed(batch.map((r) => statementCore(r.text))),
    encoder.embed(batch.map((r) => subjectFrame(r.text))),
    encoder.embed(batch.map((r) => valuePhrase(r.text) ?? r.text)),
  ]);
  for (const [j, r] of batch.entries()) process.stdout.write(`${JSON.stringify({ ...r, stmt: round(stmt[j]!), frame: round(frame[j]!), valueVec: round(value[j]!) })}\n`);
}
await encoder.close?.();
