import { isNegation, stem, stopwords, wordTokens } from '../embedder/tokens.js';
import { type KeyTerms, keyTerms } from '../entity-guard.js';
import type { WordWeights } from './word-weights.js';

/** What the verifier needs of one text, computed once per text. */
export interface TextProfile {
  /** The word tokens joined by spaces: equal for texts that differ only in case, spacing and punctuation. */
  words: string;
  /** Stemmed word tokens in order. */
  stems: string[];
  /** Distinct stems. */
  all: Set<string>;
  /** Distinct stems that are not function words, with their rarity weight. */
  content: Map<string, number>;
  /** Sum of the content weights. */
  contentMass: number;
  /** Distinct adjacent stem pairs. */
  bigrams: Set<string>;
  /** Distinct character trigrams of the lower-cased words joined by single spaces, each packed in one number. */
  trigrams: Set<number>;
  /** Question words present (what, why, how, ...), as a bit set. */
  questionWords: number;
  /** Negations: not, no, never, n't, without, ... */
  negations: number;
  /** Comparatives and superlatives (best, worse, most, ...), as a bit set. */
  degree: number;
  /** First-person words (I, my, me, ...): questions about the asker's own situation. */
  personal: number;
  /** Second-person words (you, your, ...). */
  second: number;
  /** Words pointing at context the question does not hold (this, these, following, above). */
  deictic: number;
  /** Content stems in order of first appearance. */
  order: string[];
  /** Gendered words: bit 1 male (he, him, boyfriend, ...), bit 2 female. */
  gender: number;
  terms: KeyTerms;
}

const questionWordList = ['what', 'why', 'how', 'which', 'who', 'whom', 'whose', 'when', 'where', 'whether', 'is', 'are', 'can', 'do', 'does', 'should', 'will', 'would'];
const questionWordBits = new Map(questionWordList.map((w, i) => [w, 1 << i]));
const degreeList = ['best', 'worst', 'better', 'worse', 'most', 'least', 'more', 'less', 'top', 'good', 'bad', 'easiest', 'hardest', 'cheapest', 'fastest', 'biggest', 'largest', 'smallest'];
const degreeBits = new Map(degreeList.map((w, i) => [w, 1 << i]));
const personalWords = new Set(['i', 'my', 'me', 'mine', 'myself']);
const secondWords = new Set(['you', 'your', 'yours', 'yourself', 'yourselves']);
const deicticWords = new Set(['this', 'these', 'following', 'above', 'below', 'attached', 'here']);
const male = new Set(['he', 'him', 'his', 'himself', 'man', 'men', 'boy', 'boys', 'boyfriend', 'husband', 'guy', 'guys', 'male', 'father', 'son', 'brother']);
const female = new Set(['she', 'her', 'hers', 'herself', 'woman', 'women', 'girl', 'girls', 'girlfriend', 'wife', 'lady', 'female', 'mother', 'daughter', 'sister']);

/** Profiles a text (the cache's normalised question); `terms` when the caller already has its {@link keyTerms}. */
export function profile(text: string, weights: WordWeights, terms?: KeyTerms): TextProfile {
  const tokens = wordTokens(text);
  const stems = tokens.map(stem);
  const all = new Set(stems);
  const content = new Map<string, number>();
  let contentMass = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (stopwords.has(tokens[i]!) || content.has(stems[i]!)) continue;
    const w = weights.weight(stems[i]!);
    content.set(stems[i]!, w);
    contentMass += w;
  }
  const bigrams = new Set<string>();
  for (let i = 1; i < stems.length; i++) bigrams.add(`${stems[i - 1]} ${stems[i]}`);
  const joined = ` ${tokens.join(' ')} `;
  const trigrams = new Set<number>();
  for (let i = 0; i + 3 <= joined.length; i++) trigrams.add(joined.charCodeAt(i) * 4294967296 + joined.charCodeAt(i + 1) * 65536 + joined.charCodeAt(i + 2));
  let questionWords = 0;
  let negations = 0;
  let degree = 0;
  let personal = 0;
  let gender = 0;
  let second = 0;
  let deictic = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    questionWords |= questionWordBits.get(token) ?? 0;
    degree |= degreeBits.get(token) ?? 0;
    if (isNegation(tokens, i)) negations++;
    if (personalWords.has(token)) personal++;
    if (secondWords.has(token)) second++;
    if (deicticWords.has(token)) deictic++;
    if (male.has(token)) gender |= 1;
    else if (female.has(token)) gender |= 2;
  }
  return { words: tokens.join(' '), stems, all, content, contentMass, order: [...content.keys()], bigrams, trigrams, questionWords, negations, degree, personal, second, deictic, gender, terms: terms ?? keyTerms(text, tokens, stems) };
}

/** Weight of `a`'s content words that `b` lacks, and the heaviest of them. */
function missing(a: TextProfile, b: TextProfile): { mass: number; top: number } {
  let mass = 0;
  let top = 0;
  for (const [word, w] of a.content) {
    if (b.content.has(word)) continue;
    mass += w;
    if (w > top) top = w;
  }
  return { mass, top };
}

/** Share of the pairs of shared content words that the two texts put in opposite order ("A better than B" vs "B better than A"). */
function inversions(q: TextProfile, c: TextProfile): number {
  const positions: number[] = [];
  for (const word of q.order) {
    const at = c.order.indexOf(word);
    if (at >= 0) positions.push(at);
  }
  let discordant = 0;
  for (let i = 0; i < positions.length; i++) for (let j = i + 1; j < positions.length; j++) if (positions[i]! > positions[j]!) discordant++;
  const pairs = (positions.length * (positions.length - 1)) / 2;
  return pairs === 0 ? 0 : discordant / pairs;
}

function overlap<T>(a: Set<T> | Map<T, unknown>, b: Set<T> | Map<T, unknown>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let n = 0;
  for (const x of small.keys()) if (large.has(x)) n++;
  return n;
}

function jaccard<T>(a: Set<T> | Map<T, unknown>, b: Set<T> | Map<T, unknown>, shared = overlap(a, b)): number {
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

function unmatched(terms: Set<string>, other: KeyTerms): number {
  let n = 0;
  for (const term of terms) if (!other.tokens.has(term) && !other.tokens.has(stem(term))) n++;
  return n;
}

function bits(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/** Word-level edit distance of two stem sequences, over the longer length (0 = same words in the same order). */
function editRatio(a: readonly string[], b: readonly string[]): number {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return n === m ? 0 : 1;
  if (rowA.length <= m) [rowA, rowB] = [new Int32Array(2 * m + 2), new Int32Array(2 * m + 2)];
  let previous = rowA;
  let current = rowB;
  for (let j = 0; j <= m; j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    const word = a[i - 1];
    for (let j = 1; j <= m; j++) {
      const replace = previous[j - 1]! + (word === b[j - 1] ? 0 : 1);
      const insert = current[j - 1]! + 1;
      const remove = previous[j]! + 1;
      current[j] = Math.min(replace, insert, remove);
    }
    [previous, current] = [current, previous];
  }
  return previous[m]! / Math.max(n, m);
}

/** Names of the features, in the order {@link pairFeatures} writes them. */
export const featureNames = [
  'cosine',
  'word_jaccard',
  'content_jaccard',
  'bigram_jaccard',
  'trigram_jaccard',
  'content_unmatched_min',
  'content_unmatched_max',
  'content_size_min',
  'length_ratio',
  'edit_ratio',
  'same_first_word',
  'question_words_diff',
  'negations_diff',
  'degree_diff',
  'personal_min',
  'personal_diff',
  'numbers_unmatched',
  'symbols_unmatched',
  'names_unmatched_min',
  'names_unmatched_max',
  'weighted_jaccard',
  'weighted_missing_min',
  'weighted_missing_max',
  'rarest_missing',
  'gender_diff',
  'order_inversions',
  'second_person_diff',
  'deictic_max',
] as const;

/** Writes the features of a query and a stored question (and their cosine) into `out`. */
export function pairFeatures(q: TextProfile, c: TextProfile, cosine: number, out: Float64Array): Float64Array {
  const contentShared = overlap(q.content, c.content);
  const qUnmatched = q.content.size - contentShared;
  const cUnmatched = c.content.size - contentShared;
  const namesQ = unmatched(q.terms.names, c.terms);
  const namesC = unmatched(c.terms.names, q.terms);
  let i = 0;
  out[i++] = cosine;
  out[i++] = jaccard(q.all, c.all);
  out[i++] = jaccard(q.content, c.content, contentShared);
  out[i++] = jaccard(q.bigrams, c.bigrams);
  out[i++] = jaccard(q.trigrams, c.trigrams);
  out[i++] = Math.min(qUnmatched, cUnmatched);
  out[i++] = Math.max(qUnmatched, cUnmatched);
  out[i++] = Math.min(q.content.size, c.content.size);
  out[i++] = Math.min(q.stems.length, c.stems.length) / Math.max(1, q.stems.length, c.stems.length);
  out[i++] = editRatio(q.stems, c.stems);
  out[i++] = q.stems[0] === c.stems[0] ? 1 : 0;
  out[i++] = bits(q.questionWords ^ c.questionWords);
  out[i++] = Math.abs(q.negations - c.negations);
  out[i++] = bits(q.degree ^ c.degree);
  out[i++] = Math.min(q.personal, c.personal);
  out[i++] = Math.abs(q.personal - c.personal);
  out[i++] = unmatched(q.terms.numbers, c.terms) + unmatched(c.terms.numbers, q.terms);
  out[i++] = unmatched(q.terms.symbols, c.terms) + unmatched(c.terms.symbols, q.terms);
  out[i++] = Math.min(namesQ, namesC);
  out[i++] = Math.max(namesQ, namesC);
  const qMissing = missing(q, c);
  const cMissing = missing(c, q);
  const shared = q.contentMass - qMissing.mass;
  const union = shared + qMissing.mass + cMissing.mass;
  out[i++] = union === 0 ? 1 : shared / union;
  out[i++] = Math.min(qMissing.mass, cMissing.mass);
  out[i++] = Math.max(qMissing.mass, cMissing.mass);
  out[i++] = Math.max(qMissing.top, cMissing.top);
  out[i++] = bits(q.gender ^ c.gender);
  out[i++] = inversions(q, c);
  out[i++] = Math.abs(q.second - c.second);
  out[i++] = Math.max(q.deictic, c.deictic);
  return out;
}
