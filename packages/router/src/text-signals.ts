import { chatOpeners, phrases, questionOpeners, words as vocabulary } from './vocabulary.js';

/** Signals read from the text of the message being answered; each roughly in 0..1. */
export interface TextSignals {
  /** Code: fences, braces and semicolons, keywords, stack traces. */
  code: number;
  /** Math: operators between digits, LaTeX, math vocabulary. */
  math: number;
  /** Markup or data: HTML/XML tags, JSON, tables. */
  markup: number;
  /** Share of non-ASCII characters (a proxy for non-English text). */
  nonAscii: number;
  /** Reasoning vocabulary: why, explain, prove, compare, trade-off... */
  reasoningWords: number;
  /** Constraints and structure asked for: must, at least, step by step, numbered lists. */
  constraintWords: number;
  /** Share of digit characters. */
  numbers: number;
  /** A multiple-choice question (options A-D). */
  choices: boolean;
  /** Share of words of 9+ letters (lexical sophistication). */
  longWords: number;
  /** Vocabulary hits per family (counts, small integers). */
  writingHits: number;
  /** Writing verbs (write, draft): weak on their own, `write a function` is code. */
  writingVerbs: number;
  /** Starts with a question word (what, who, how many...). */
  question: boolean;
  extractionHits: number;
  translationHits: number;
  analysisHits: number;
  chatHits: number;
  codeHits: number;
  mathHits: number;
  /** Words in the scanned text. */
  words: number;
}

const choicePattern = /(^|\n)\s*\(?[a-d][.)]\s+\S[^\n]*\n\s*\(?[a-d][.)]\s/;
const latex = /\\(frac|sum|int|sqrt|begin|alpha|beta|theta|lambda|pi|infty|cdot|times|leq|geq)|\$[^$\n]+\$/;

/** A digit, a space or `x`: what surrounds an arithmetic operator. */
function operand(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 32 || c === 120;
}

/** Scans `text` once: a char loop for densities, word lookups for vocabulary, two small regexes. */
export function scanText(text: string): TextSignals {
  const lower = text.toLowerCase();
  const length = lower.length;
  let digits = 0;
  let nonAscii = 0;
  let codeChars = 0;
  let operatorsNearDigits = 0;
  let tags = 0;
  let words = 0;
  let longWords = 0;
  let fences = 0;
  let start = -1;
  const hits = new Int32Array(10);
  let prev1 = '';
  let prev2 = '';
  let first = '';
  for (let i = 0; i <= length; i++) {
    const c = i < length ? lower.charCodeAt(i) : 32;
    if ((c >= 97 && c <= 122) || (c > 127 && c !== 8217)) {
      if (c > 127) nonAscii++;
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      const word = lower.slice(start, i);
      start = -1;
      if (words === 0) first = word;
      words++;
      if (word.length >= 9) longWords++;
      const flags = vocabulary.get(word);
      if (flags !== undefined) tally(hits, flags);
      const candidates = phrases.get(word);
      if (candidates !== undefined) {
        for (const p of candidates) {
          const n = p.before.length;
          if ((n === 1 && p.before[0] === prev1) || (n === 2 && p.before[0] === prev2 && p.before[1] === prev1)) tally(hits, p.flags);
        }
      }
      prev2 = prev1;
      prev1 = word;
    }
    if (c >= 48 && c <= 57) digits++;
    else if (c === 123 || c === 125 || c === 59) codeChars++; // { } ;
    else if (c === 96) {
      if (lower.charCodeAt(i + 1) === 96 && lower.charCodeAt(i + 2) === 96) fences++;
    } else if (c === 60) {
      const next = lower.charCodeAt(i + 1);
      if ((next >= 97 && next <= 122) || next === 47) tags++;
    } else if (c === 37 || c === 43 || c === 42 || c === 61 || c === 94 || c === 47 || c === 45) {
      if (operand(lower.charCodeAt(i - 1)) && operand(lower.charCodeAt(i + 1))) operatorsNearDigits++;
    }
  }
  const perKChar = length > 0 ? 1000 / length : 0;
  const codeHits = hits[0]!;
  const mathHits = hits[1]!;
  const code = Math.min(1, fences * 0.5 + (codeChars * perKChar) / 40 + Math.min(codeHits, 6) / 8);
  const math = Math.min(1, (latex.test(text) ? 0.5 : 0) + Math.min(operatorsNearDigits, 3) / 3 + Math.min(mathHits, 4) / 6);
  const jsonLike = lower.includes('{"') || lower.includes('": ');
  const markup = Math.min(1, tags / 6 + (jsonLike ? 0.4 : 0) + (lower.includes('|---') ? 0.3 : 0));
  return {
    code,
    math,
    markup,
    nonAscii: length > 0 ? Math.min(1, (nonAscii / length) * 2) : 0,
    reasoningWords: Math.min(1.5, hits[2]! / 3),
    constraintWords: Math.min(1, hits[3]! / 5),
    numbers: length > 0 ? Math.min(1, (digits / length) * 5) : 0,
    choices: choicePattern.test(lower),
    longWords: words > 0 ? Math.min(1, (longWords / words) * 4) : 0,
    writingHits: hits[5]!,
    writingVerbs: hits[4]!,
    question: questionOpeners.has(first),
    extractionHits: hits[6]!,
    translationHits: hits[7]!,
    analysisHits: hits[8]!,
    chatHits: hits[9]! + (chatOpeners.has(first) ? 1 : 0),
    codeHits,
    mathHits,
    words,
  };
}

function tally(hits: Int32Array, flags: number): void {
  for (let bit = 0; bit < 10; bit++) if (flags & (1 << bit)) hits[bit]!++;
}
