/**
 * Guardrail checks on public labelled data (issue #29 part 3), each next to a naive baseline:
 * - prompt injection: deepset/prompt-injections (Apache-2.0), the scorer's rules were tuned on the
 *   train split only; the test split is held out;
 * - PII: Presidio's synthetic set (MIT), on the kinds the check covers (emails, phone numbers,
 *   payment cards, IBANs, IP addresses); names and street addresses are out of its scope and
 *   reported as such.
 * `pnpm --filter @svc/evals guardrails` prints both tables.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { learnedInjectionProbability, scorePromptInjection } from '@svc/guardrails';
import { redactPii } from '@svc/memory';

const dataDir = fileURLToPath(new URL('../../data/guardrails/', import.meta.url));
const readJsonl = <T>(name: string): T[] =>
  readFileSync(`${dataDir}${name}`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

function score(labels: readonly boolean[], predicted: readonly boolean[]): Counts {
  const counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  labels.forEach((label, i) => {
    const guess = predicted[i]!;
    if (guess && label) counts.tp++;
    else if (guess) counts.fp++;
    else if (label) counts.fn++;
    else counts.tn++;
  });
  return counts;
}

const pct = (n: number, d: number) => (d === 0 ? '   n/a' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
function row(name: string, { tp, fp, fn, tn }: Counts): string {
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  const f1 = (2 * precision * recall) / (precision + recall);
  return `${name.padEnd(44)} precision ${pct(tp, tp + fp)}  recall ${pct(tp, tp + fn)}  F1 ${Number.isFinite(f1) ? f1.toFixed(3) : 'n/a'}  (tp ${tp}, fp ${fp}, fn ${fn}, tn ${tn})`;
}

/** The naive baseline: the override words every injection list starts with. */
const INJECTION_KEYWORDS = /ignore|forget|disregard|previous instructions|vergiss|ignorier/i;

function injectionTable(): void {
  console.log('Prompt injection: deepset/prompt-injections (label 1 = injection)');
  for (const split of ['train', 'test'] as const) {
    const rows = readJsonl<{ text: string; label: number }>(`prompt-injections-${split}.jsonl`);
    const labels = rows.map((entry) => entry.label === 1);
    const note = split === 'train' ? 'tuning and training split: the learned rows are in sample' : 'held out';
    console.log(`  ${split} (${rows.length} prompts, ${labels.filter(Boolean).length} injections; ${note})`);
    console.log(`    ${row('keyword baseline (ignore/forget/disregard...)', score(labels, rows.map((entry) => INJECTION_KEYWORDS.test(entry.text))))}`);
    console.log(`    ${row('rules alone (threshold 0.5)', score(labels, rows.map((entry) => scorePromptInjection(entry.text, false).score >= 0.5)))}`);
    console.log(`    ${row('learned reader alone (p >= 0.5)', score(labels, rows.map((entry) => learnedInjectionProbability(entry.text) >= 0.5)))}`);
    console.log(`    ${row('svc prompt_injection (rules + reader, 0.5)', score(labels, rows.map((entry) => scorePromptInjection(entry.text).score >= 0.5)))}`);
  }
  benignTable();
}

/**
 * False flags on ordinary questions from another source: the first 2,000 distinct questions of
 * ../shared/data/semcache/qqp-dev.jsonl (Quora; none is an injection), what an over-eager check
 * would refuse in production.
 */
function benignTable(): void {
  const path = fileURLToPath(new URL('../../../../../shared/data/semcache/qqp-dev.jsonl', import.meta.url));
  const questions = [...new Set(readFileSync(path, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => (JSON.parse(line) as { a: string }).a))].slice(0, 2000);
  const flagged = (predicate: (text: string) => boolean) => questions.filter(predicate).length;
  console.log(`  ordinary questions (Quora, ${questions.length}; every flag is a false one):`);
  console.log(`    keyword baseline ${pct(flagged((t) => INJECTION_KEYWORDS.test(t)), questions.length)}, rules alone ${pct(flagged((t) => scorePromptInjection(t, false).score >= 0.5), questions.length)}, learned reader alone ${pct(flagged((t) => learnedInjectionProbability(t) >= 0.5), questions.length)}, svc prompt_injection ${pct(flagged((t) => scorePromptInjection(t).score >= 0.5), questions.length)}`);
}

/** Presidio entity types the pii check is meant to find. */
const COVERED = new Set(['EMAIL_ADDRESS', 'PHONE_NUMBER', 'CREDIT_CARD', 'IBAN_CODE', 'IP_ADDRESS']);
/** The naive baseline: an @ or a run of 7 digits (spaces and dashes allowed). */
const PII_NAIVE = /@|\d(?:[ -]?\d){6,}/;

type Span = [type: string, start: number, end: number];

function piiTable(): void {
  const rows = readJsonl<{ text: string; spans: Span[] }>('presidio-synth-pii.jsonl');
  const labels = rows.map((entry) => entry.spans.some(([type]) => COVERED.has(type)));
  const redactions = rows.map((entry) => redactPii(entry.text));
  console.log(`\nPII: Presidio synth_dataset_v2 (${rows.length} sentences, ${labels.filter(Boolean).length} holding a covered kind)`);
  console.log(`  sentence flagged when it holds an email, phone, card, IBAN or IP:`);
  console.log(`    ${row('naive baseline (@ or 7+ digits)', score(labels, rows.map((entry) => PII_NAIVE.test(entry.text))))}`);
  console.log(`    ${row('svc pii', score(labels, redactions.map((redaction) => Object.keys(redaction.counts).length > 0)))}`);
  console.log('  span recall by kind (svc: the value no longer appears in the redacted text; naive: the value matches its pattern):');
  const byType = new Map<string, { found: number; total: number; naive: number }>();
  rows.forEach((entry, i) => {
    for (const [type, start, end] of entry.spans) {
      const value = entry.text.slice(start, end);
      const tally = byType.get(type) ?? { found: 0, total: 0, naive: 0 };
      tally.total++;
      if (!redactions[i]!.text.includes(value)) tally.found++;
      if (PII_NAIVE.test(value)) tally.naive++;
      byType.set(type, tally);
    }
  });
  for (const [type, tally] of [...byType].sort((a, b) => b[1].total - a[1].total)) {
    const scope = COVERED.has(type) ? '' : '  (out of scope)';
    console.log(`    ${type.padEnd(18)} svc ${pct(tally.found, tally.total)}   naive ${pct(tally.naive, tally.total)}   of ${String(tally.total).padStart(4)}${scope}`);
  }
}

injectionTable();
piiTable();
