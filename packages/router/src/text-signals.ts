import { CHAT_OPENER, entries, fnvOffset, fnvStep, lookup, NEGATION, QUESTION_OPENER, tallied } from './vocabulary.js';

import { maxTerms, scanWindow, type TextSignals, termBuckets } from './text-signals-shape.js';

export { maxTerms, scanWindow, termBuckets, type TextSignals } from './text-signals-shape.js';
const headTerms = Math.round((maxTerms * 3) / 4);
const tailTerms = maxTerms - headTerms;

const latexCommands = ['frac', 'sum', 'int', 'sqrt', 'begin', 'alpha', 'beta', 'theta', 'lambda', 'pi', 'infty', 'cdot', 'times', 'leq', 'geq'];

// Reused by every call: the scanner is synchronous, so one set of buffers serves all requests.
const hits = new Int32Array(tallied);
const termScratch = new Uint16Array(maxTerms);

/** Lower case for ASCII, Latin-1, Greek and Cyrillic capitals; other code units unchanged. */
function fold(c: number): number {
  if (c < 65) return c;
  if (c <= 90) return c + 32;
  if (c < 192) return c;
  if (c <= 222) return c === 215 ? c : c + 32;
  if (c >= 913 && c <= 937) return c === 930 ? c : c + 32;
  if (c >= 1040 && c <= 1071) return c + 32;
  if (c >= 1024 && c <= 1039) return c + 80;
  return c;
}

/** JavaScript's `\s`. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 5760 || (c >= 8192 && c <= 8202) || c === 8232 || c === 8233 || c === 8239 || c === 8287 || c === 12288 || c === 65279;
}

/** A digit, a space or `x`: what surrounds an arithmetic operator. */
function operand(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 32 || c === 120;
}

function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return (x ^ (x >>> 16)) & (termBuckets - 1);
}

/**
 * The scanned text is `text` itself, or its first and last `scanWindow / 2` characters joined by
 * a newline. `at` reads position `k` of that virtual string without building it (NaN past the end).
 */
let source = '';
let headEnd = 0;
let tailOffset = 0;
function at(k: number): number {
  return k < headEnd ? source.charCodeAt(k) : k === headEnd ? 10 : source.charCodeAt(k + tailOffset);
}

/** Whether the folded text at [start, end) spells `word`. */
function spells(word: string, start: number, end: number): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (fold(at(start + i)) !== word.charCodeAt(i)) return false;
  return true;
}

/** Length of a choice marker (`a.`, `(b)`, `C)`) followed by whitespace at `k`, or 0. */
function markerAt(k: number): number {
  const j = at(k) === 40 ? k + 1 : k;
  const letter = fold(at(j));
  if (letter < 97 || letter > 100) return 0;
  const mark = at(j + 1);
  if (mark !== 46 && mark !== 41) return 0;
  return isSpace(fold(at(j + 2))) ? j + 2 - k : 0;
}

function latexAt(k: number): boolean {
  for (const command of latexCommands) {
    let i = 0;
    while (i < command.length && at(k + 1 + i) === command.charCodeAt(i)) i++;
    if (i === command.length) return true;
  }
  return false;
}

let termCount = 0;
let tailCursor = 0;
let previousToken = 0;

function term(bucket: number): void {
  if (termCount < headTerms) termScratch[termCount++] = bucket;
  else termScratch[headTerms + (tailCursor++ % tailTerms)] = bucket;
}

/** One word or number: its own term, and the pair it forms with the token before it. */
function token(hash: number): void {
  term(mix(hash));
  if (previousToken !== 0) term(mix(Math.imul(previousToken, 0x9e3779b1) ^ hash ^ 0x5bd1e995));
  previousToken = hash;
}

const talliedMask = (1 << tallied) - 1;

/** ASCII kinds for the scanner's fast path. */
const OTHER = 0;
const LETTER = 1;
const DIGIT = 2;
const SPACE = 3;
const asciiKind = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  asciiKind[c] = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) ? LETTER : c >= 48 && c <= 57 ? DIGIT : isSpace(c) ? SPACE : OTHER;
}

/**
 * Reads `text` once, char by char: densities, vocabulary (words are hashed while read and looked
 * up by hash, no substrings), choice markers, LaTeX, JSON and table marks, and the hashed terms.
 * No regular expression and no allocation but the result and its terms. Text longer than
 * `scanWindow` is read as its head and tail.
 */
export function scanText(text: string): TextSignals {
  source = text;
  const windowed = text.length > scanWindow;
  const head = windowed ? scanWindow / 2 : text.length + 1;
  const offset = windowed ? text.length - scanWindow - 1 : 0;
  headEnd = head;
  tailOffset = offset;
  const length = windowed ? scanWindow + 1 : text.length;
  hits.fill(0);
  let digits = 0;
  let nonAscii = 0;
  let codeChars = 0;
  let operatorsNearDigits = 0;
  let tags = 0;
  let words = 0;
  let longWords = 0;
  let fences = 0;
  let negations = 0;
  let questionMarks = 0;
  let lines = 1;
  let latex = false;
  let jsonLike = false;
  let table = false;
  let lastDollar = -1;
  let firstFlags = 0;
  // Current word: start, hash, capitals; the two words before it (positions, for phrases).
  let start = -1;
  let hash = 0;
  let capitals = 0;
  let prev1Start = -1;
  let prev1End = -1;
  let prev2Start = -1;
  let prev2End = -1;
  // Current number token.
  let numberStart = -1;
  let numberHash = 0;
  termCount = 0;
  tailCursor = 0;
  previousToken = 0;
  // Choice detection, the regex /(^|\n)\s*\(?[a-d][.)]\s+\S[^\n]*\n\s*\(?[a-d][.)]\s/ as a state machine.
  let choices = false;
  let lineStart = true;
  let awaitContent = false;
  let contentFrom = 0;
  let contentOpen = false;
  let awaitSecond = false;
  // The option line being read (after its marker), and the options so far.
  let optionFrom = -1;
  let optionChars = 0;
  let optionDigits = 0;
  let options = 0;
  let optionDigitShare = 0;
  let symbols = 0;

  for (let k = 0; k <= length; k++) {
    const raw = k < length ? (k < head ? text.charCodeAt(k) : k === head ? 10 : text.charCodeAt(k + offset)) : 32;
    // Most characters are lower-case letters inside a word: they only extend its hash. (Not at a
    // line start or awaited choice content: a word can begin with a non-ASCII space such as U+00A0.)
    if (start >= 0 && raw >= 97 && raw <= 122 && !lineStart && !awaitContent) {
      hash = Math.imul(hash ^ raw, 0x01000193);
      if (optionFrom >= 0 && k >= optionFrom) optionChars++;
      continue;
    }
    let c = raw;
    let kind = OTHER;
    if (raw < 128) {
      kind = asciiKind[raw]!;
      if (raw <= 90 && kind === LETTER) c = raw + 32;
    } else {
      c = fold(raw);
      if (c !== 8217) kind = LETTER;
    }
    if ((lineStart || awaitContent) && k < length && (raw < 128 ? kind !== SPACE : !isSpace(c))) {
      if (lineStart) {
        lineStart = false;
        const marker = markerAt(k);
        if (marker > 0) {
          optionFrom = k + marker;
          optionChars = 0;
          optionDigits = 0;
        }
        if (awaitSecond) {
          if (marker > 0) choices = true;
          awaitSecond = false;
        }
        if (awaitContent) {
          awaitContent = false;
          contentOpen = true;
        }
        if (marker > 0 && !choices) {
          awaitContent = true;
          contentFrom = k + marker;
        }
      } else if (k >= contentFrom) {
        awaitContent = false;
        contentOpen = true;
      }
    }
    if (optionFrom >= 0 && k >= optionFrom) {
      if (c === 10 || k === length) {
        options++;
        optionDigitShare += optionChars > 0 ? optionDigits / optionChars : 0;
        optionFrom = -1;
      } else if (raw < 128 ? kind !== SPACE : !isSpace(c)) {
        optionChars++;
        if (kind === DIGIT) optionDigits++;
      }
    }
    if (kind === LETTER) {
      if (raw > 127) {
        nonAscii++;
        if (c === 215 || c === 247 || c === 177 || c === 960 || (c >= 8704 && c <= 8959)) symbols++;
      }
      if (start < 0) {
        if (numberStart >= 0) {
          token(numberHash);
          numberStart = -1;
        }
        start = k;
        hash = fnvOffset;
        capitals = 0;
      }
      hash = fnvStep(hash, c);
      if (raw !== c) capitals++;
      continue;
    }
    if (start >= 0) {
      const index = lookup(hash);
      if (index >= 0) {
        const entry = entries[index]!;
        if (spells(entry.word, start, k)) {
          if (words === 0) firstFlags = entry.flags;
          if (entry.flags & talliedMask) tally(entry.flags);
          if (entry.flags & NEGATION && capitals === k - start && capitals >= 3) negations++;
          for (const p of entry.phrases) {
            const n = p.before.length;
            if ((n === 1 && spells(p.before[0]!, prev1Start, prev1End)) || (n === 2 && spells(p.before[0]!, prev2Start, prev2End) && spells(p.before[1]!, prev1Start, prev1End))) tally(p.flags);
          }
        }
      }
      words++;
      if (k - start >= 9) longWords++;
      token(hash);
      prev2Start = prev1Start;
      prev2End = prev1End;
      prev1Start = start;
      prev1End = k;
      start = -1;
    }
    if (kind === DIGIT) {
      digits++;
      if (numberStart < 0) {
        numberStart = k;
        numberHash = 0x2545f491;
      }
      numberHash = fnvStep(numberHash, c);
      continue;
    }
    if (numberStart >= 0) {
      token(numberHash);
      numberStart = -1;
    }
    if (c === 32) continue;
    if (c === 123 || c === 125 || c === 59) {
      codeChars++; // { } ;
      if (c === 123 && at(k + 1) === 34) jsonLike = true;
    } else if (c === 10) {
      lines++;
      lastDollar = -1;
      lineStart = true;
      if (contentOpen) {
        contentOpen = false;
        awaitSecond = true;
      }
    } else if (c === 96) {
      if (at(k + 1) === 96 && at(k + 2) === 96) fences++;
    } else if (c === 60) {
      const next = fold(at(k + 1));
      if ((next >= 97 && next <= 122) || next === 47) tags++;
    } else if (c === 37 || c === 43 || c === 42 || c === 61 || c === 94 || c === 47 || c === 45) {
      if (operand(fold(at(k - 1))) && operand(fold(at(k + 1)))) operatorsNearDigits++;
      if (c === 61 || c === 94) symbols++;
    } else if (c === 34) {
      if (at(k + 1) === 58 && at(k + 2) === 32) jsonLike = true;
    } else if (c === 124) {
      if (at(k + 1) === 45 && at(k + 2) === 45 && at(k + 3) === 45) table = true;
    } else if (c === 36) {
      if (lastDollar >= 0 && k - lastDollar > 1) latex = true;
      lastDollar = k;
    } else if (c === 92) {
      if (!latex && latexAt(k)) latex = true;
    } else if (c === 63) questionMarks++;
  }
  source = '';
  const perKChar = length > 0 ? 1000 / length : 0;
  const codeHits = hits[0]!;
  const mathHits = hits[1]!;
  const code = Math.min(1, fences * 0.5 + (codeChars * perKChar) / 40 + Math.min(codeHits, 6) / 8);
  const math = Math.min(1, (latex ? 0.5 : 0) + Math.min(operatorsNearDigits, 3) / 3 + Math.min(mathHits, 4) / 6);
  const markup = Math.min(1, tags / 6 + (jsonLike ? 0.4 : 0) + (table ? 0.3 : 0));
  const termTotal = termCount < headTerms ? termCount : headTerms + Math.min(tailCursor, tailTerms);
  return {
    code,
    math,
    markup,
    nonAscii: length > 0 ? Math.min(1, (nonAscii / length) * 2) : 0,
    reasoningWords: Math.min(1.5, hits[2]! / 3),
    constraintWords: Math.min(1, hits[3]! / 5),
    numbers: length > 0 ? Math.min(1, (digits / length) * 5) : 0,
    choices,
    longWords: words > 0 ? Math.min(1, (longWords / words) * 4) : 0,
    negations: Math.min(1, negations / 2),
    questionMarks: Math.min(1, questionMarks / 3),
    lines: Math.min(1, Math.log2(lines) / 8),
    numericOptions: options > 0 ? Math.min(1, (optionDigitShare / options) * 2) : 0,
    mathSymbols: Math.min(1, symbols / 5),
    writingHits: hits[5]!,
    writingVerbs: hits[4]!,
    question: (firstFlags & QUESTION_OPENER) !== 0,
    extractionHits: hits[6]!,
    translationHits: hits[7]!,
    analysisHits: hits[8]!,
    chatHits: hits[9]! + (firstFlags & CHAT_OPENER ? 1 : 0),
    codeHits,
    mathHits,
    words,
    terms: termScratch.slice(0, termTotal),
  };
}

function tally(flags: number): void {
  for (let bit = 0; bit < tallied; bit++) if (flags & (1 << bit)) hits[bit]!++;
}
