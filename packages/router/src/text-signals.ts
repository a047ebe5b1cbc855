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

/** The scanner's state for one text: counters, the word and number being read, the choice state machine. Reset by {@link resetScan}. */
const st = {
  digits: 0,
  nonAscii: 0,
  codeChars: 0,
  operatorsNearDigits: 0,
  tags: 0,
  words: 0,
  longWords: 0,
  fences: 0,
  negations: 0,
  questionMarks: 0,
  lines: 1,
  latex: false,
  jsonLike: false,
  table: false,
  lastDollar: -1,
  firstFlags: 0,
  // Current word: start, hash, capitals; the two words before it (positions, for phrases).
  start: -1,
  hash: 0,
  capitals: 0,
  prev1Start: -1,
  prev1End: -1,
  prev2Start: -1,
  prev2End: -1,
  // Current number token.
  numberStart: -1,
  numberHash: 0,
  // Choice detection, the regex /(^|\n)\s*\(?[a-d][.)]\s+\S[^\n]*\n\s*\(?[a-d][.)]\s/ as a state machine.
  choices: false,
  lineStart: true,
  awaitContent: false,
  contentFrom: 0,
  contentOpen: false,
  awaitSecond: false,
  // The option line being read (after its marker), and the options so far.
  optionFrom: -1,
  optionChars: 0,
  optionDigits: 0,
  options: 0,
  optionDigitShare: 0,
  symbols: 0,
};

function resetScan(text: string, head: number, offset: number): void {
  source = text;
  headEnd = head;
  tailOffset = offset;
  hits.fill(0);
  st.digits = st.nonAscii = st.codeChars = st.operatorsNearDigits = st.tags = st.words = st.longWords = st.fences = st.negations = st.questionMarks = 0;
  st.lines = 1;
  st.latex = st.jsonLike = st.table = false;
  st.lastDollar = -1;
  st.firstFlags = 0;
  st.start = st.prev1Start = st.prev1End = st.prev2Start = st.prev2End = st.numberStart = -1;
  st.hash = st.capitals = st.numberHash = 0;
  st.choices = st.awaitContent = st.contentOpen = st.awaitSecond = false;
  st.lineStart = true;
  st.contentFrom = 0;
  st.optionFrom = -1;
  st.optionChars = st.optionDigits = st.options = st.optionDigitShare = st.symbols = 0;
  termCount = 0;
  tailCursor = 0;
  previousToken = 0;
}

/** The first non-space character of a line, or of an awaited choice's content, at `k`. */
function lineContent(k: number): void {
  if (!st.lineStart) {
    if (k >= st.contentFrom) {
      st.awaitContent = false;
      st.contentOpen = true;
    }
    return;
  }
  st.lineStart = false;
  const marker = markerAt(k);
  if (marker > 0) {
    st.optionFrom = k + marker;
    st.optionChars = 0;
    st.optionDigits = 0;
  }
  if (st.awaitSecond) {
    if (marker > 0) st.choices = true;
    st.awaitSecond = false;
  }
  if (st.awaitContent) {
    st.awaitContent = false;
    st.contentOpen = true;
  }
  if (marker > 0 && !st.choices) {
    st.awaitContent = true;
    st.contentFrom = k + marker;
  }
}

/** A character of the option line being read (`end`: its newline or the end of the text). */
function optionChar(end: boolean, space: boolean, kind: number): void {
  if (end) {
    st.options++;
    st.optionDigitShare += st.optionChars > 0 ? st.optionDigits / st.optionChars : 0;
    st.optionFrom = -1;
  } else if (!space) {
    st.optionChars++;
    if (kind === DIGIT) st.optionDigits++;
  }
}

/** A letter (folded `c`) at `k`: starts or extends the current word. */
function letter(k: number, raw: number, c: number): void {
  if (raw > 127) {
    st.nonAscii++;
    if (c === 215 || c === 247 || c === 177 || c === 960 || (c >= 8704 && c <= 8959)) st.symbols++;
  }
  if (st.start < 0) {
    if (st.numberStart >= 0) {
      token(st.numberHash);
      st.numberStart = -1;
    }
    st.start = k;
    st.hash = fnvOffset;
    st.capitals = 0;
  }
  st.hash = fnvStep(st.hash, c);
  if (raw !== c) st.capitals++;
}

/** The word ending at `k`: vocabulary and phrase tallies, counts, its term. */
function endWord(k: number): void {
  const { start, hash } = st;
  const index = lookup(hash);
  if (index >= 0) {
    const entry = entries[index]!;
    if (spells(entry.word, start, k)) {
      if (st.words === 0) st.firstFlags = entry.flags;
      if (entry.flags & talliedMask) tally(entry.flags);
      if (entry.flags & NEGATION && st.capitals === k - start && st.capitals >= 3) st.negations++;
      for (const p of entry.phrases) {
        const n = p.before.length;
        if ((n === 1 && spells(p.before[0]!, st.prev1Start, st.prev1End)) || (n === 2 && spells(p.before[0]!, st.prev2Start, st.prev2End) && spells(p.before[1]!, st.prev1Start, st.prev1End))) tally(p.flags);
      }
    }
  }
  st.words++;
  if (k - start >= 9) st.longWords++;
  token(hash);
  st.prev2Start = st.prev1Start;
  st.prev2End = st.prev1End;
  st.prev1Start = start;
  st.prev1End = k;
  st.start = -1;
}

/** A digit (`c`) at `k`: starts or extends the current number. */
function digit(k: number, c: number): void {
  st.digits++;
  if (st.numberStart < 0) {
    st.numberStart = k;
    st.numberHash = 0x2545f491;
  }
  st.numberHash = fnvStep(st.numberHash, c);
}

/** Any other non-space character (folded `c`) at `k`: code, line, fence, tag, operator, JSON, table, LaTeX and question marks. */
function mark(k: number, c: number): void {
  if (c === 123 || c === 125 || c === 59) {
    st.codeChars++; // { } ;
    if (c === 123 && at(k + 1) === 34) st.jsonLike = true;
  } else if (c === 10) {
    st.lines++;
    st.lastDollar = -1;
    st.lineStart = true;
    if (st.contentOpen) {
      st.contentOpen = false;
      st.awaitSecond = true;
    }
  } else if (c === 96) {
    if (at(k + 1) === 96 && at(k + 2) === 96) st.fences++;
  } else if (c === 60) {
    const next = fold(at(k + 1));
    if ((next >= 97 && next <= 122) || next === 47) st.tags++;
  } else if (c === 37 || c === 43 || c === 42 || c === 61 || c === 94 || c === 47 || c === 45) {
    if (operand(fold(at(k - 1))) && operand(fold(at(k + 1)))) st.operatorsNearDigits++;
    if (c === 61 || c === 94) st.symbols++;
  } else if (c === 34) {
    if (at(k + 1) === 58 && at(k + 2) === 32) st.jsonLike = true;
  } else if (c === 124) {
    if (at(k + 1) === 45 && at(k + 2) === 45 && at(k + 3) === 45) st.table = true;
  } else if (c === 36) {
    if (st.lastDollar >= 0 && k - st.lastDollar > 1) st.latex = true;
    st.lastDollar = k;
  } else if (c === 92) {
    if (!st.latex && latexAt(k)) st.latex = true;
  } else if (c === 63) st.questionMarks++;
}

/**
 * Reads `text` once, char by char: densities, vocabulary (words are hashed while read and looked
 * up by hash, no substrings), choice markers, LaTeX, JSON and table marks, and the hashed terms.
 * No regular expression and no allocation but the result and its terms. Text longer than
 * `scanWindow` is read as its head and tail.
 */
export function scanText(text: string): TextSignals {
  const windowed = text.length > scanWindow;
  const head = windowed ? scanWindow / 2 : text.length + 1;
  const offset = windowed ? text.length - scanWindow - 1 : 0;
  const length = windowed ? scanWindow + 1 : text.length;
  resetScan(text, head, offset);
  for (let k = 0; k <= length; k++) {
    const raw = k < length ? (k < head ? text.charCodeAt(k) : k === head ? 10 : text.charCodeAt(k + offset)) : 32;
    // Most characters are lower-case letters inside a word: they only extend its hash. (Not at a
    // line start or awaited choice content: a word can begin with a non-ASCII space such as U+00A0.)
    if (st.start >= 0 && raw >= 97 && raw <= 122 && !st.lineStart && !st.awaitContent) {
      st.hash = Math.imul(st.hash ^ raw, 0x01000193);
      if (st.optionFrom >= 0 && k >= st.optionFrom) st.optionChars++;
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
    const space = raw < 128 ? kind === SPACE : isSpace(c);
    if ((st.lineStart || st.awaitContent) && k < length && !space) lineContent(k);
    if (st.optionFrom >= 0 && k >= st.optionFrom) optionChar(c === 10 || k === length, space, kind);
    if (kind === LETTER) {
      letter(k, raw, c);
      continue;
    }
    if (st.start >= 0) endWord(k);
    if (kind === DIGIT) {
      digit(k, c);
      continue;
    }
    if (st.numberStart >= 0) {
      token(st.numberHash);
      st.numberStart = -1;
    }
    if (c !== 32) mark(k, c);
  }
  source = '';
  return summarise(length);
}

/** The signals of the text just scanned (`length` characters read). */
function summarise(length: number): TextSignals {
  const perKChar = length > 0 ? 1000 / length : 0;
  const codeHits = hits[0]!;
  const mathHits = hits[1]!;
  const termTotal = termCount < headTerms ? termCount : headTerms + Math.min(tailCursor, tailTerms);
  return {
    code: Math.min(1, st.fences * 0.5 + (st.codeChars * perKChar) / 40 + Math.min(codeHits, 6) / 8),
    math: Math.min(1, (st.latex ? 0.5 : 0) + Math.min(st.operatorsNearDigits, 3) / 3 + Math.min(mathHits, 4) / 6),
    markup: Math.min(1, st.tags / 6 + (st.jsonLike ? 0.4 : 0) + (st.table ? 0.3 : 0)),
    nonAscii: length > 0 ? Math.min(1, (st.nonAscii / length) * 2) : 0,
    reasoningWords: Math.min(1.5, hits[2]! / 3),
    constraintWords: Math.min(1, hits[3]! / 5),
    numbers: length > 0 ? Math.min(1, (st.digits / length) * 5) : 0,
    choices: st.choices,
    longWords: st.words > 0 ? Math.min(1, (st.longWords / st.words) * 4) : 0,
    negations: Math.min(1, st.negations / 2),
    questionMarks: Math.min(1, st.questionMarks / 3),
    lines: Math.min(1, Math.log2(st.lines) / 8),
    numericOptions: st.options > 0 ? Math.min(1, (st.optionDigitShare / st.options) * 2) : 0,
    mathSymbols: Math.min(1, st.symbols / 5),
    writingHits: hits[5]!,
    writingVerbs: hits[4]!,
    question: (st.firstFlags & QUESTION_OPENER) !== 0,
    extractionHits: hits[6]!,
    translationHits: hits[7]!,
    analysisHits: hits[8]!,
    chatHits: hits[9]! + (st.firstFlags & CHAT_OPENER ? 1 : 0),
    codeHits,
    mathHits,
    words: st.words,
    terms: termScratch.slice(0, termTotal),
  };
}

function tally(flags: number): void {
  for (let bit = 0; bit < tallied; bit++) if (flags & (1 << bit)) hits[bit]!++;
}
