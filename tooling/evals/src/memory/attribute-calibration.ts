/**
 * Calibrates the attribute classifier of `@svc/memory` (`attribute-classifier.ts`) on dev data only:
 * the dev attributes' statement and update forms and their tuning question forms (which should be
 * classified), the background facts of `facts.jsonl` that state none of them and the dev half of the
 * unrelated prompts (which should not). Prints the rates for a grid of thresholds.
 *
 *   pnpm --filter @svc/evals memory:attributes [--data ../shared/data/semcache]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { ATTRIBUTE_PROTOTYPES, attributeThresholds, createAttributeClassifier } from '@svc/memory';
import { loadFacts, loadUnrelated } from './dataset.js';
import { loadAttributeQuestions, loadUpdateAttributes } from './updates-data.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../../../shared/data/semcache' } } });
const embedder = createSentenceEncoder({ cacheSize: 0 });
const slotOfAttribute: Record<string, string> = { home: 'home', job: 'job', diet: 'diet', partner: "my:partner's name", 'relationship status': 'relationship', language: 'language', phone: 'my:phone', commute: 'commute', coffee: 'my:coffee', team: 'team', 'gym day': 'workout day', 'work location': 'work location' };
const dev = loadUpdateAttributes().filter((a) => a.split === 'dev' && slotOfAttribute[a.attribute]);
const questions = loadAttributeQuestions();
const statements = dev.flatMap((a) => [...a.states, ...a.updates].flatMap((form) => a.values.slice(0, 3).map((v) => ({ text: form.replaceAll('{v}', v), slot: slotOfAttribute[a.attribute]! }))));
const asked = dev.flatMap((a) => questions.get(a.attribute)!.tune.map((text) => ({ text, slot: slotOfAttribute[a.attribute]! })));
const background = loadFacts().filter((f) => ![0, 3, 11, 13, 17, 21, 28].includes(f.template)).map((f) => f.fact);
const unrelated = loadUnrelated(values.data).dev;
const vectors = async (texts: readonly string[]) => embedder.embed(texts);
const [sv, qv, bv, uv] = [await vectors(statements.map((s) => s.text)), await vectors(asked.map((q) => q.text)), await vectors(background), await vectors(unrelated)];
console.log(`${ATTRIBUTE_PROTOTYPES.length} attributes; ${statements.length} dev statements, ${asked.length} dev questions, ${background.length} background facts, ${unrelated.length} unrelated prompts`);
console.log('statement margin | right  wrong  background   || question | right  unrelated');
for (const margin of [0.04, 0.08, 0.12, 0.16]) {
  for (const [st, qt] of [[0.45, 0.45], [0.5, 0.5], [0.55, 0.55], [0.6, 0.6], [0.65, 0.65]] as const) {
    const c = createAttributeClassifier(embedder, { thresholds: { ...attributeThresholds(embedder.id)!, statement: st, question: qt, margin } });
    let right = 0, wrong = 0, bg = 0, qRight = 0, un = 0;
    for (const [i, s] of statements.entries()) { const got = await c.slotOf(sv[i]!); if (got === s.slot) right++; else if (got) wrong++; }
    for (const v of bv) if (await c.slotOf(v)) bg++;
    for (const [i, q] of asked.entries()) if ((await c.askedBy(qv[i]!)) === q.slot) qRight++;
    for (const v of uv) if (await c.askedBy(v)) un++;
    const p = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`.padStart(6);
    console.log(`${st.toFixed(2)} ${margin.toFixed(2)}      | ${p(right, statements.length)} ${p(wrong, statements.length)} ${p(bg, background.length)}     || ${qt.toFixed(2)}     | ${p(qRight, asked.length)} ${p(un, unrelated.length)}`);
  }
}
await embedder.close();
