/**
 * Corrections left unlinked, on tuning data only: for every updated attribute whose old value is
 * still in force after session 2, the old fact, the correction, and where the old
 * fact ranks among the user's facts of the same holder by the subject score of `subject-links.ts`
 * (statement cosine plus frame cosine) and by the frame cosine alone (both statements with their
 * value removed), beside the best other fact.
 * Prints examples only for `dev` attributes (the held-out ones are counted, never shown).
 * With `--grid`, the frame rule over every fact written in session 2 against the same holder's older
 * facts still in force: the unlinked corrections it would link to their old fact (right) or to
 * another fact (wrong), and the other session-2 facts it would link at all (each one a fact wrongly
 * superseded), per floor and margin, for changes only and for any statement.
 *
 * With `--reader HEAD.json` (and `--grid`), a pair reader scores each fact's `--nearest` candidates by rule 6's score (the
 * rest score 0), and the grid is the reader's, alone and where rule 6's shipped setting links nothing: the relation head
 * (`pair-reader/relation-features.ts`, eighteenth pass) or the attention head over both statements' token states
 * (`pair-reader/attention-reader.ts`, nineteenth pass), told apart by the file's fields.
 *
 * `--kinds wv:<table>:<floor>:<margin>:<mode>` replays with rule 7's values typed by word vectors, `--change-kinds` (the same,
 * or `minilm`) with rule 8's typed half switched on (`word-vectors/kinds-option.ts`).
 *
 *   pnpm --filter @svc/evals memory:unlinked [--attributes updates-tuning.jsonl] [--grid] [--reader HEAD.json --nearest 3] [--kinds ...] [--change-kinds ...]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { createValueKinds, endUserSubject, extractFacts, holderOf, notAState, pairValues, statementCore, subjectFrame, valuePhrase } from '@svc/memory';
import { loadFacts } from './dataset.js';
import { type FrameProbe, frameGrid, rankByFrame, readerLinks } from './unlinked-frames.js';
import { type AttentionHead, attentionScores, isAttentionHead } from './pair-reader/attention-reader.js';
import { type RelationHead, relationFeatures, relationScore } from './pair-reader/relation-features.js';
import { loadUpdateAttributes, updateUsers } from './updates-data.js';
import { kindsOption, matcherOption, pairDifferences } from './word-vectors/kinds-option.js';
import { asserts, replayUsers, supersessions } from './updates-eval.js';

const { values } = parseArgs({ options: { users: { type: 'string', default: '48' }, attributes: { type: 'string', default: 'updates-tuning.jsonl' }, grid: { type: 'boolean', default: false }, reader: { type: 'string' }, nearest: { type: 'string', default: '3' }, kinds: { type: 'string' }, 'change-kinds': { type: 'string' }, links: { type: 'boolean', default: false } } });
const embedder = createSentenceEncoder({ cacheSize: 0 });
const users = updateUsers(loadFacts(), loadUpdateAttributes(values.attributes), { count: Number(values.users), perUser: 6 });
const chosen = kindsOption(values.kinds, embedder);
// Rule 7's value pairs typed differently by the chosen typer and the shipped one: printed for the tuning files only.
const traced = chosen && values.attributes !== 'updates.jsonl' ? pairDifferences(chosen, createValueKinds(embedder)) : undefined;
const run = await replayUsers(embedder, users, true, { valueKinds: traced?.kinds ?? chosen, changeValues: matcherOption(values['change-kinds'], embedder) });
for (const line of traced?.differences ?? []) console.log(`typed: ${line}`);
// Every supersession of the replay (`--links`), for the tuning files only: diff two runs to see what a setting linked.
if (values.links && values.attributes !== 'updates.jsonl') for (const line of await supersessions(run)) console.log(`link: ${line}`);
const DAY = 86_400_000;
const typer = chosen ?? createValueKinds(embedder);
/** Rule 7's view of a correction and its old fact: the pair's values (none without a shared word about the thing) and their kinds; else the two value phrases and theirs. */
async function valuesShown(fresh: string, old: string): Promise<string> {
  const pair = pairValues(fresh, old);
  const shown = pair ?? [valuePhrase(fresh) ?? '-', valuePhrase(old) ?? '-'];
  const kinds = await typer.kindsOf(shown);
  return `${pair ? 'pair values' : 'no pair (value phrases)'} "${shown[0]}" ${kinds[0]} / "${shown[1]}" ${kinds[1]}`;
}
let unlinked = 0;
let heldOut = 0;
const probes: FrameProbe[] = [];
for (const [u, user] of users.entries()) {
  const listed = await run.memory.list('org-updates', { subject: endUserSubject('org-updates', `user-${u}`), limit: 1_000 });
  const active = listed.map((m) => m.text);
  const latest = Math.max(...listed.map((m) => m.createdAt.getTime()));
  const vectors = { statements: await embedder.embed(active.map(statementCore)), frames: await embedder.embed(active.map(subjectFrame)), values: await embedder.embed(active.map((t) => valuePhrase(t) ?? t)) };
  const oldOf = new Map<string, string[]>();
  const hidden = new Set<string>();
  for (const held of user.attributes) {
    // Nothing of a held-out attribute is looked at, its unlinked corrections only counted.
    if (held.attribute.split !== 'dev') for (const t of active) if (asserts(t, held.first) || asserts(t, held.second)) hidden.add(t);
    if (held.fate !== 'update') continue;
    const olds = active.filter((t) => asserts(t, held.first));
    const fresh = active.find((t) => asserts(t, held.second));
    if (olds.length === 0 || fresh === undefined) continue;
    if (held.attribute.split !== 'dev') {
      heldOut++;
      continue;
    }
    unlinked++;
    oldOf.set(fresh, olds);
    const ranked = rankByFrame(active, vectors, active.indexOf(fresh), (t) => t !== fresh && holderOf(t) === holderOf(fresh) && !notAState(t));
    const at = ranked.findIndex((r) => olds.includes(r.text));
    const old = ranked[at];
    const other = ranked.find((r) => r.text !== old?.text);
    const frameAt = [...ranked].sort((a, b) => b.frame - a.frame).findIndex((r) => r.text === old?.text);
    const change = extractFacts(fresh)[0]?.change ?? 'none';
    const shown = old ? `"${old.text}" subject ${old.subject.toFixed(2)} rank ${at + 1}, frame ${old.frame.toFixed(2)} rank ${frameAt + 1}, typed ${old.typed.toFixed(2)}` : `${JSON.stringify(olds)} (another holder)`;
    if (!values.grid) console.log(`${held.attribute.attribute} [${change}]: "${fresh}" <- ${shown}; best other "${other?.text}" ${other?.subject.toFixed(2)} / frame ${other?.frame.toFixed(2)}; ${await valuesShown(fresh, olds[0]!)}`);
  }
  if (!values.grid) continue;
  // Every session-2 fact (held-out attributes' facts left out) against the same holder's older facts in force.
  for (const [i, m] of listed.entries()) {
    if (m.createdAt.getTime() < latest - 15 * DAY || hidden.has(m.text) || notAState(m.text)) continue;
    const earlier = (t: string) => t !== m.text && !hidden.has(t) && holderOf(t) === holderOf(m.text) && !notAState(t) && valuePhrase(t) !== valuePhrase(m.text) && listed.find((x) => x.text === t)!.createdAt < m.createdAt;
    probes.push({ text: m.text, change: extractFacts(m.text)[0]?.change === 'update', olds: oldOf.get(m.text), ranked: rankByFrame(active, vectors, i, earlier) });
  }
}
console.log(`unlinked dev corrections: ${unlinked}; held-out (not shown): ${heldOut}`);
const head = values.reader === undefined ? undefined : (JSON.parse(readFileSync(values.reader, 'utf8')) as RelationHead | AttentionHead);
/** The reader's scores of (older fact, newer fact) pairs: the nineteenth pass's attention head reads both statements' token states, the eighteenth's relation head cosines of their views. */
const readerScores = async (reader: RelationHead | AttentionHead, pairs: (readonly [string, string])[]) =>
  isAttentionHead(reader)
    ? attentionScores(embedder, reader, pairs.map(([a, b]) => [statementCore(a), statementCore(b)] as const))
    : (await relationFeatures(embedder, pairs)).map((f) => relationScore(reader, f));
if (head) {
  const started = process.cpuUsage();
  let pairs = 0;
  for (const probe of probes) {
    const near = probe.ranked.slice(0, Number(values.nearest));
    const scores = await readerScores(head, near.map((c) => [c.text, probe.text] as const));
    for (const [i, c] of near.entries()) c.reader = scores[i]!;
    pairs += near.length;
  }
  const used = process.cpuUsage(started);
  console.log(`reader ${head.id}: ${pairs} pairs, ${((used.user + used.system) / Math.max(1, probes.length)).toFixed(0)} µs CPU of the process per fact, encoder included`);
}
if (values.grid) for (const line of frameGrid(probes, head !== undefined)) console.log(JSON.stringify(line));
// Links of dev attributes only: facts naming a held-out attribute's value never became probes.
if (head) for (const line of readerLinks(probes, 0.9, 0.1)) console.log(line);
await embedder.close?.();
