/**
 * Why a linked correction's new fact is not recalled, counted: for every tuning question about an
 * updated attribute whose old fact is out of force and whose new fact is in force but not given,
 * where the new fact stands among the user's facts by relevance (similarity plus cues): passing
 * the floor yet hidden by a rule or the limit; the user's nearest fact but under the floor (and
 * why the clearly-nearest rule did not take it); behind another fact. And whether the question
 * carried the slot cue for it (the attribute asked, from the patterns or the encoder's examples).
 * Tuning forms of the dev attributes only, never a held-out attribute or form.
 *
 *   pnpm --filter @svc/evals memory:recall-misses --attributes updates-tuning-2.jsonl --questions update-questions-tuning-2.jsonl [--verbose]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { asksForState, createAttributeClassifier, endUserSubject, recallFloors, refersToUser, slotsAskedFor } from '@svc/memory';
import { loadFacts } from './dataset.js';
import { attributeFacts } from './stated-facts.js';
import { loadAttributeQuestions, loadUpdateAttributes, updateUsers } from './updates-data.js';
import { replayUsers, shippedRecall } from './updates-eval.js';

const { values } = parseArgs({ options: { attributes: { type: 'string', default: 'updates.jsonl' }, questions: { type: 'string', default: 'update-questions.jsonl' }, verbose: { type: 'boolean', default: false } } });
const embedder = createSentenceEncoder({ cacheSize: 0 });
const users = updateUsers(loadFacts(), loadUpdateAttributes(values.attributes), { count: 48, perUser: 6 });
const questions = loadAttributeQuestions(values.questions);
const run = await replayUsers(embedder, users, true);
const classifier = createAttributeClassifier(embedder);
const floors = recallFloors(embedder.id);
const ORG = 'org-updates';
const counts = new Map<string, number>();
const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
/** The cue bonus a candidate got, read off its score (similarity under the cued floor gets none; a fact lifted through history reads as `lifted`). */
function cueOf(score: number, similarity: number): string {
  const bonus = Math.round((score - similarity) * 100);
  const names: Record<number, string> = { 0: 'none', 3: 'word', 10: 'own', 13: 'own+word', 25: 'slot', 28: 'slot+word', 35: 'slot+own', 38: 'slot+own+word' };
  return score >= 1 ? 'capped' : (names[bonus] ?? 'lifted');
}

for (const [u, user] of users.entries()) {
  const subject = endUserSubject(ORG, `user-${u}`);
  const active = new Set((await run.memory.list(ORG, { subject, limit: 1_000 })).map((m) => m.text));
  for (const held of user.attributes) {
    if (held.fate !== 'update' || held.attribute.split !== 'dev') continue;
    const facts = attributeFacts(user, held);
    if ([...facts.old].some((t) => active.has(t)) || ![...facts.fresh].some((t) => active.has(t))) continue;
    for (const question of questions.get(held.attribute.attribute)?.tune ?? []) {
      const injected = await shippedRecall(run.memory, u, question);
      if (injected.some((t) => facts.fresh.has(t))) continue;
      const all = await run.memory.recall({ orgId: ORG, subject }, question, { minSimilarity: -1, limit: 200 });
      const rank = all.findIndex((m) => facts.fresh.has(m.text));
      const fresh = all[rank];
      const floor = refersToUser(question) ? floors.self : floors.other;
      const [vector] = await embedder.embed([question]);
      const asked = [...slotsAskedFor(question), (await classifier.askedBy(vector!)) ?? '-'];
      const state = asksForState(question);
      const lead = fresh && rank === 0 ? fresh.score - (all[1]?.score ?? 0) : 0;
      const where = !fresh
        ? 'not a candidate (hidden by a recall rule)'
        : fresh.score >= floor
          ? 'passes the floor, hidden by a rule or the limit'
          : rank === 0
            ? `nearest, under the floor (${state ? `state question, ${fresh.score < 0.35 ? 'under 0.35' : 'not 0.1 clear of the next candidate'}` : 'not a state question'})`
            : 'behind another fact, under the floor';
      const cue = fresh ? cueOf(fresh.score, fresh.similarity ?? 0) : '-';
      bump(`where: ${where}`);
      bump(`cue on the new fact: ${cue}`);
      bump(`the encoder names an attribute for the question: ${asked[asked.length - 1] === '-' ? 'no' : 'yes'}`);
      bump(`${question.includes('?') && /^(what|which|who|where|when|how|do|am|is)\b/i.test(question) ? 'direct question' : 'indirect request'}${state ? ' (state question)' : ''}`);
      if (values.verbose) console.log(`  ${where} | cue ${cue} | ${held.attribute.attribute}: ${held.second} | ${question} | new ${fresh ? `${fresh.score.toFixed(2)}/${(fresh.similarity ?? 0).toFixed(2)} rank ${rank + 1} lead ${lead.toFixed(2)}` : '-'} | asks ${asked.join(',')} | top ${all.slice(0, 2).map((m) => `${m.text} ${m.score.toFixed(2)}`).join(' ; ')}`);
    }
  }
}
for (const [key, n] of [...counts.entries()].sort()) console.log(`${n}\t${key}`);
await embedder.close?.();
