import { jsonrepair } from 'jsonrepair';
import { type JsonSpan, findJsonSpans, unfence } from './find-json.js';
import type { HealingChange } from './types.js';

export type ParseOutcome =
  | { ok: true; value: unknown; text: string; changes: HealingChange[] }
  | { ok: false; message: string; truncated: boolean };

export interface ParseOptions {
  /** `{` when the answer must be an object, `{[` when an array may be the answer. */
  openers: string;
  /** The provider said the answer was cut off (`finish_reason: length`). */
  truncated?: boolean;
}

/** At most this many JSON-looking values are tried in one answer (prose may hold stray braces). */
const maxSpans = 4;

/**
 * Stages 0 and 1: the answer parsed as is, or the JSON found in it (inside a code fence, after or
 * before prose) and, failing that, repaired by `jsonrepair`. Each step that alters the text is
 * listed in `changes`; an empty list means the text was valid JSON exactly as given.
 */
export function parseAnswer(text: string, options: ParseOptions): ParseOutcome {
  const strict = tryParse(text);
  if (strict.ok) return unwrapDoubleEncoded({ ok: true, value: strict.value, text, changes: [] }, options);

  const changes: HealingChange[] = [];
  let working = text;
  const fenced = unfence(text, options.openers);
  if (fenced) {
    working = fenced.inner;
    changes.push({ kind: fenced.prose ? 'strip_prose' : 'strip_fence' });
    const inner = tryParse(working);
    if (inner.ok) return { ok: true, value: inner.value, text: working, changes };
  }

  const spans = findJsonSpans(working, options.openers, maxSpans);
  for (const span of spans) {
    const candidate = working.slice(span.start, span.end);
    const parsed = tryParse(candidate);
    if (parsed.ok) return { ok: true, value: parsed.value, text: candidate, changes: withProse(changes, working, span) };
  }

  const whole: JsonSpan = { start: 0, end: working.length, truncated: false };
  for (const span of spans.length > 0 ? spans : [whole]) {
    const candidate = working.slice(span.start, span.end);
    const repaired = tryRepair(candidate);
    if (!repaired.ok) continue;
    const steps = withProse(changes, working, span);
    steps.push({ kind: span.truncated || options.truncated ? 'complete_truncated' : 'repair_syntax' });
    if (countNulls(repaired.value) > countNullTokens(candidate)) steps.push({ kind: 'fill_null' });
    return { ok: true, value: repaired.value, text: repaired.text, changes: steps };
  }

  return {
    ok: false,
    message: strict.message,
    truncated: options.truncated === true || spans.some((span) => span.truncated),
  };
}

/** `"{\"a\":1}"`: some models (and some SDKs) encode the JSON answer a second time. */
function unwrapDoubleEncoded(outcome: ParseOutcome & { ok: true }, options: ParseOptions): ParseOutcome {
  if (typeof outcome.value !== 'string') return outcome;
  const inner = outcome.value.trim();
  if (!options.openers.includes(inner.charAt(0))) return outcome;
  const parsed = tryParse(inner);
  if (!parsed.ok) return outcome;
  return { ok: true, value: parsed.value, text: inner, changes: [{ kind: 'unwrap_string' }] };
}

function withProse(changes: readonly HealingChange[], working: string, span: JsonSpan): HealingChange[] {
  const steps = [...changes];
  const prose = working.slice(0, span.start).trim() !== '' || working.slice(span.end).trim() !== '';
  if (prose && !steps.some((step) => step.kind === 'strip_prose')) steps.push({ kind: 'strip_prose' });
  return steps;
}

type Attempt = { ok: true; value: unknown; text: string } | { ok: false; message: string };

function tryParse(text: string): Attempt {
  try {
    return { ok: true, value: JSON.parse(text), text };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

function tryRepair(text: string): Attempt {
  try {
    const repaired = jsonrepair(text);
    return { ok: true, value: JSON.parse(repaired), text: repaired };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** Literals jsonrepair turns into `null`; more nulls after repair than these means some were invented. */
const nullTokens = /\b(?:null|None|undefined)\b/g;

function countNullTokens(text: string): number {
  return text.match(nullTokens)?.length ?? 0;
}

function countNulls(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null) count++;
    else if (typeof next === 'object') for (const item of Object.values(next)) pending.push(item);
  }
  return count;
}
