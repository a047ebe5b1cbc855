import { isSymbol, stem, wordTokens } from './embedder/tokens.js';

/** The words of a text that pin down what it is about: numbers, names and symbols. */
export interface KeyTerms {
  /** Lower-cased tokens that contain a digit (`2016`, `5g`, `10k`). */
  numbers: Set<string>;
  /** Lower-cased, stemmed words written capitalised anywhere but at the start of a sentence, and acronyms. */
  names: Set<string>;
  /** Symbols such as `+`, `#`, `%`, `~` (`C++` is not `C`). */
  symbols: Set<string>;
  /** Every lower-cased, stemmed token, to test whether a key term of the other text occurs there in any case. */
  tokens: Set<string>;
  /** Ordered pairs around a direction word (`celsius>fahrenheit` in "Celsius to Fahrenheit", "Python than Java"). */
  directions: Set<string>;
}

/** Two words joined by a word that orders them: "A to B", "A into B", "A than B", "A versus B". */
const directed = /([\p{L}\p{N}]+)\s+(?:to|into|than|vs|versus)\s+(?:an?\s+|the\s+)?([\p{L}\p{N}]+)/giu;

function directionsOf(text: string): Set<string> {
  const pairs = new Set<string>();
  for (const match of text.matchAll(directed)) pairs.add(`${stem(match[1]!.toLowerCase())}>${stem(match[2]!.toLowerCase())}`);
  return pairs;
}

/** Whether one text orders two words the other way round ("10 Celsius to Fahrenheit" vs "10 Fahrenheit to Celsius"). */
function reversed(a: KeyTerms, b: KeyTerms): boolean {
  for (const pair of a.directions) {
    const [from, to] = pair.split('>');
    if (from !== to && b.directions.has(`${to}>${from}`)) return true;
  }
  return false;
}

// Markup rather than meaning: code spans, emphasis, tables.
const markup = new Set(['`', '^', '|', '*']);
const scan = /[\p{L}\p{N}]+|[.!?:;\n]/gu;
const sentenceEnd = /^[.!?:;\n]$/;
const digit = /\p{N}/u;
const capital = /^\p{Lu}/u;
const marks = /\p{M}+/gu;

/**
 * Extracts {@link KeyTerms} (two passes over the words). `words` and `stems` may be passed when
 * the caller already has them: `wordTokens(text)` and their stems.
 */
export function keyTerms(text: string, words: readonly string[] = wordTokens(text), stems: readonly string[] = words.map(stem)): KeyTerms {
  const numbers = new Set<string>();
  const names = new Set<string>();
  const symbols = new Set<string>();
  const tokens = new Set(stems);
  for (const token of words) if (isSymbol(token) && !markup.has(token)) symbols.add(token);
  let sentenceStart = true;
  const folded = text.normalize('NFKD').replace(marks, '');
  scan.lastIndex = 0;
  for (let match = scan.exec(folded); match !== null; match = scan.exec(folded)) {
    const word = match[0];
    if (sentenceEnd.test(word)) {
      sentenceStart = true;
      continue;
    }
    if (digit.test(word)) numbers.add(word.toLowerCase());
    else if (word.length > 1 && capital.test(word) && (!sentenceStart || word === word.toUpperCase())) names.add(stem(word.toLowerCase()));
    sentenceStart = false;
  }
  return { numbers, names, symbols, tokens, directions: directionsOf(folded) };
}

function unmatched(terms: Set<string>, other: KeyTerms): number {
  let n = 0;
  for (const term of terms) if (!other.tokens.has(term) && !other.tokens.has(stem(term))) n++;
  return n;
}

/**
 * Whether two texts plausibly ask about the same things: false when either has a number or a
 * symbol the other lacks, when one orders two words the other way round ("Celsius to
 * Fahrenheit" vs "Fahrenheit to Celsius"), or when each names something the other does not (a substitution:
 * "capital of France" vs "capital of Spain"). A name only one side mentions ("Elvis Presley"
 * vs "Elvis") passes, so paraphrases that drop a qualifier still hit.
 */
export function sameKeyTerms(a: KeyTerms, b: KeyTerms): boolean {
  if (unmatched(a.numbers, b) > 0 || unmatched(b.numbers, a) > 0) return false;
  if (reversed(a, b)) return false;
  if (unmatched(a.symbols, b) > 0 || unmatched(b.symbols, a) > 0) return false;
  return unmatched(a.names, b) === 0 || unmatched(b.names, a) === 0;
}
