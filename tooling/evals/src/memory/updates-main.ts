/**
 * Knowledge updates, measured: simulated end users state attributes (home, job, diet, ...), in
 * compound messages with instructions and small talk glued on, then a month later correct or
 * retract most of them; every question form of an attribute is then asked. Reports the share of
 * related questions given the current value, given a superseded one (stale), given a retracted
 * one, false injection into unrelated prompts, background facts lost to over-eager corrections,
 * and how cleanly messages split into facts, next to two naive baselines (every statement kept and
 * recalled by similarity; every statement kept and the five newest injected).
 *
 * `--kinds wv:<table>:<floor>:<margin>:<mode>` types values for rule 7 with word vectors, `--change-kinds` (the same, or
 * `minilm`) switches on rule 8's typed half (`onlyOneOfItsTypedKind`; `word-vectors/kinds-option.ts`).
 *
 *   pnpm --filter @svc/evals memory:updates [--data ../shared/data/semcache] [--embedder minilm|hashed] [--users 48] [--kinds ...] [--change-kinds ...]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { createHashedEmbedder, type Embedder } from '@svc/semantic';
import { loadFacts, loadUnrelated } from './dataset.js';
import { kindsOption, matcherOption } from './word-vectors/kinds-option.js';
import { loadAttributeQuestions, loadUpdateAttributes, updateUsers } from './updates-data.js';
import { backgroundLost, cleanFacts, falseInjection, type Injector, recencyOnly, replayUsers, scoreQuestions, shippedRecall, type UpdateRun, type UpdateScores } from './updates-eval.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../../../shared/data/semcache' },
    embedder: { type: 'string', default: 'minilm' },
    users: { type: 'string', default: '48' },
    'per-user': { type: 'string', default: '6' },
    verbose: { type: 'boolean', default: false },
    // Score the tuning forms only: the held-out forms stay unseen while rules are being chosen.
    'tuning-only': { type: 'boolean', default: false },
    // Another set of attributes and questions (data/memory/updates-tuning.jsonl: written to tune on, none of them held out).
    attributes: { type: 'string', default: 'updates.jsonl' },
    questions: { type: 'string', default: 'update-questions.jsonl' },
    kinds: { type: 'string' },
    'change-kinds': { type: 'string' },
  },
});

const encoder: Embedder & { close?: () => Promise<void> } = values.embedder === 'hashed' ? createHashedEmbedder() : createSentenceEncoder({ cacheSize: 0 });
// Every text's vector, kept: a second pass over the same prompts then times recall without its embedding.
const seen = new Map<string, Float32Array>();
const embedder: Embedder = {
  id: encoder.id,
  dimensions: encoder.dimensions,
  embed: async (texts) => {
    const missing = texts.filter((t) => !seen.has(t));
    const fresh = missing.length > 0 ? await encoder.embed(missing) : [];
    for (const [i, t] of missing.entries()) seen.set(t, fresh[i]!);
    return texts.map((t) => seen.get(t)!);
  },
};
const attributes = loadUpdateAttributes(values.attributes);
const questions = loadAttributeQuestions(values.questions);
const users = updateUsers(loadFacts(), attributes, { count: Number(values.users), perUser: Number(values['per-user']) });
const unrelated = loadUnrelated(values.data);
const percent = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(7);
const share = (n: number, of: number) => (of === 0 ? 0 : n / of);

const messages = users.flatMap((u) => [...u.session1, ...u.session2]);
const clean = cleanFacts(messages);
console.log(`knowledge updates: ${embedder.id}, ${users.length} users x ${users[0]!.attributes.length} attributes (+${users[0]!.background.length} background facts); ${messages.length} messages`);
console.log(`clean facts: ${clean.clean}/${clean.messages} messages split into one clean fact per statement (${percent(share(clean.clean, clean.messages))}); ${clean.residue.length} stored facts carry an instruction, question or small talk`);
if (values.verbose) for (const line of [...clean.unsplit.slice(0, 15), ...clean.residue.slice(0, 10)]) console.log(`  ${line}`);

const header = `${''.padEnd(58)}current   stale  retracted  kept   | per fact: current   stale  retracted  kept`;
const four = (c: Pick<UpdateScores, 'current' | 'stale' | 'retractedGiven' | 'keptRecalled'>, s: UpdateScores) =>
  [share(c.current, s.updated), share(c.stale, s.updated), share(c.retractedGiven, s.retracted), share(c.keptRecalled, s.kept)].map(percent).join('  ');
// Per word (any injected fact naming the value, the first passes' metric) | per fact (one of the facts that statement was stored as).
const row = (label: string, s: UpdateScores) => `${label.padEnd(58)}${four(s, s)}   | ${four(s.byFact, s)}   (${s.questions} questions)`;

async function report(label: string, run: UpdateRun, inject: Injector) {
  // Failures are shown for the tuning forms of the dev attributes only: the held-out ones stay unseen.
  const explain = values.verbose && label.startsWith('shipped') ? (line: string) => console.log(`  miss: ${line}`) : undefined;
  const tune = await scoreQuestions(run, questions, { forms: 'tune', split: 'dev', inject, ...(explain ? { explain } : {}) });
  console.log(row(`${label}: tuning forms, dev attributes`, tune));
  if (values['tuning-only']) return { tune };
  const testAll = await scoreQuestions(run, questions, { forms: 'test', inject });
  const testHeld = await scoreQuestions(run, questions, { forms: 'test', split: 'test', inject });
  console.log(row(`${label}: held-out forms, all attributes`, testAll));
  console.log(row(`${label}: held-out forms, held-out attributes`, testHeld));
  return { tune, testAll, testHeld };
}

// Write cost: wall and CPU (every thread: the encoder's worker included) per message stated, background, embedding included.
const writeStarted = { wall: performance.now(), cpu: process.cpuUsage() };
const shipped = await replayUsers(embedder, users, true, { valueKinds: kindsOption(values.kinds, embedder), changeValues: matcherOption(values['change-kinds'], embedder) });
const stated = users.reduce((n, u) => n + u.background.length + u.session1.length + u.session2.length, 0);
const writeCpu = process.cpuUsage(writeStarted.cpu);
console.log(`store: ${((performance.now() - writeStarted.wall) / stated).toFixed(2)} ms wall, ${((writeCpu.user + writeCpu.system) / 1000 / stated).toFixed(2)} ms CPU a message (${stated} messages, embedding and corrections included)`);
const keepAll = await replayUsers(embedder, users, false);
console.log(header);
const result: Record<string, unknown> = {
  embedder: embedder.id,
  cleanFacts: { clean: clean.clean, messages: clean.messages, residue: clean.residue.length },
  shipped: await report('shipped (corrections on)', shipped, shippedRecall),
  similarityOnly: await report('similarity only (every statement kept)', keepAll, shippedRecall),
  recencyOnly: await report('recency only (five newest facts)', keepAll, recencyOnly),
};
const lost = await backgroundLost(shipped);
console.log(`background facts no longer in force after the corrections: ${lost.lost}/${lost.total}${lost.examples.length ? `: ${lost.examples.join(' | ')}` : ''}`);
const started = { wall: performance.now(), cpu: process.cpuUsage() };
const fiTest = await falseInjection(shipped, unrelated.test);
const perRecall = (performance.now() - started.wall) / unrelated.test.length;
const recallCpu = process.cpuUsage(started.cpu);
const again = performance.now();
await falseInjection(shipped, unrelated.test);
const bare = ((performance.now() - again) * 1000) / unrelated.test.length;
console.log(`recall: ${((recallCpu.user + recallCpu.system) / 1000 / unrelated.test.length).toFixed(2)} ms CPU a prompt, embedding included; ${bare.toFixed(0)} µs wall a prompt without the embedding (vectors kept from the first pass)`);
const fiDev = await falseInjection(shipped, unrelated.dev);
console.log(`false injection into unrelated prompts: dev ${percent(fiDev)}, held out ${percent(fiTest)} (similarity only: held out ${percent(await falseInjection(keepAll, unrelated.test))}); recall ${perRecall.toFixed(2)} ms a prompt, wall, embedding included`);
result.falseInjection = { dev: fiDev, test: fiTest };
result.backgroundLost = { lost: lost.lost, total: lost.total };
console.log(JSON.stringify(result));
await encoder.close?.();
