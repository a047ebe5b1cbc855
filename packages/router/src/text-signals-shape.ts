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
  /** Negations written in capitals (NOT, EXCEPT, LEAST): questions that turn on a trap. 0..1. */
  negations: number;
  /** Question marks, 0..1 (three or more count 1). */
  questionMarks: number;
  /** Lines of the scanned text, log-scaled to about 0..1. */
  lines: number;
  /** How numeric the answer options of a multiple-choice question are (share of digits, doubled, 0..1). */
  numericOptions: number;
  /** Math symbols (= ^ × ÷ ± π, U+2200..U+22FF operators), 0..1 (five or more count 1). */
  mathSymbols: number;
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
  /**
   * Hashed word and word-pair terms (bucket ids below `termBuckets`) for the learned policy:
   * every word and number, and each pair of neighbours; the first `maxTerms * 3/4` and the last
   * `maxTerms / 4` of the scanned text when it has more.
   */
  terms: Uint16Array;
}

/** Text scanned per message: the whole of it up to this many characters, else its head and tail. */
export const scanWindow = 4000;
/** Hash buckets of the text terms (a power of two). */
export const termBuckets = 4096;
/**
 * Most terms kept per request: with the 21 text-mode dense features and the term count, the
 * cache-mode vector has 392 slots, the size document 1's intelligence-mode table gives.
 */
export const maxTerms = 370;
