import { isNegation, isSymbol, stem, stopwords, wordTokens } from './embedder/tokens.js';
import { opposed } from './opposites.js';

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
  /** Ordered pairs around a relation word (`celsius>fahrenheit` in "10 Celsius to Fahrenheit", `python>java` in "Python faster than Java"). */
  directions: Set<string>;
  /** Whether the text negates anything ("not", "never", "without", "can't"). */
  negated: boolean;
}

/** Words that order the words around them: "A to B", "A than B", "A in B", "from A", "A or B". */
const relations = new Set(['than', 'to', 'into', 'vs', 'versus', 'against', 'from', 'in', 'per', 'or']);
/** Words skipped when looking for the neighbours of a relation ("gold more expensive than silver"). */
const skipped = new Set(['more', 'less', 'most', 'least', 'much', 'a', 'an', 'the']);
const questionWords = new Set(['what', 'why', 'how', 'which', 'who', 'when', 'where']);
const hasDigit = /\p{N}/u;
/** How many words each side of a relation word may stand from it. */
const reach = 2;

const ordered = (word: string): boolean => !stopwords.has(word) && !questionWords.has(word) && !relations.has(word) && !hasDigit.test(word);

/** The content words within {@link reach} of `words[at]` going by `step` (-1 before, +1 after), up to another relation word. */
function neighbours(words: readonly string[], at: number, step: 1 | -1): string[] {
  const found: string[] = [];
  for (let k = at + step, seen = 0; k >= 0 && k < words.length && seen < reach; k += step) {
    const word = words[k]!;
    if (relations.has(word)) break;
    if (skipped.has(word)) continue;
    seen++;
    if (ordered(word)) found.push(stem(word));
  }
  return found;
}

/** Ordered pairs `x>y` of a content word before a relation word and one after it ("Python faster than Java": `python>java`, `faster>java`). */
function directionsOf(words: readonly string[]): Set<string> {
  const pairs = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    if (!relations.has(words[i]!)) continue;
    const after = neighbours(words, i, 1);
    for (const x of neighbours(words, i, -1)) for (const y of after) if (x !== y) pairs.add(`${x}>${y}`);
  }
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
  const negated = words.some((_, i) => isNegation(words, i));
  return { numbers, names, symbols, tokens, directions: directionsOf(words), negated };
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

/**
 * The near-miss guard: {@link sameKeyTerms}, and neither text negates what the other does not
 * ("Is coffee bad for you?" / "Is coffee not bad for you?") nor has a word whose opposite only
 * the other has ("how to lose weight" / "how to gain weight", "before" / "after"). A sentence
 * encoder puts such pairs at cosines a paraphrase shows, so they are told apart by rule.
 */
export function mayShareAnswer(a: KeyTerms, b: KeyTerms): boolean {
  if (!sameKeyTerms(a, b) || a.negated !== b.negated) return false;
  return !opposed(a.tokens, b.tokens);
}
