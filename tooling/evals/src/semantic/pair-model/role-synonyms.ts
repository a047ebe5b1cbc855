/**
 * Rewordings that replace words by synonyms as well as move them (issue #27, GPTCache's last
 * refused pairs): synonyms read off GPTCache's paraphrase pairs (data that is ours), put into
 * training sentences together with a move that keeps the meaning (positives) or a swap that
 * changes the roles (negatives), so replaced words are not read as excusing a swap, nor a move
 * with synonyms as one.
 */
import { frontClause, moveOpening, possessive, type Rewording, swapAroundRelation, swapCoordinated, swapNames } from './role-rewordings.js';

const STOP = new Set(
  'a an the of to from in on at by for with and or but as is was are were be been being than into onto over under after before during since which who that this these those its his her their it he she they you your we our can could will would should may might must do does did has have had not no how what when where why use used using also more most such other'.split(' '),
);
const contentWords = (text: string): string[] => (text.toLowerCase().match(/[a-z][a-z-]*/g) ?? []).filter((w) => w.length > 2 && !STOP.has(w));

/** The gaps of the longest common subsequence of two word lists: each run of `a` and `b` between two kept words. */
function gaps(a: readonly string[], b: readonly string[]): [string[], string[]][] {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  const out: [string[], string[]][] = [];
  let [i, j] = [0, 0];
  let gap: [string[], string[]] = [[], []];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(gap);
      gap = [[], []];
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && dp[i + 1]![j]! >= dp[i]![j + 1]!)) gap[0].push(a[i++]!);
    else gap[1].push(b[j++]!);
  }
  out.push(gap);
  return out;
}

/**
 * Word-for-word replacements of paraphrase pairs: where the two texts' content words, read in
 * order, differ by one word for one ("employed" / "used"), both ways. Same-stem pairs (plurals,
 * tenses) are left out: they are not what a reader of replaced words has to learn.
 */
export function synonymLexicon(pairs: readonly { origin: string; similar: string }[]): Map<string, Set<string>> {
  const lexicon = new Map<string, Set<string>>();
  const add = (x: string, y: string) => lexicon.set(x, (lexicon.get(x) ?? new Set()).add(y));
  for (const p of pairs) {
    for (const [x, y] of gaps(contentWords(p.origin), contentWords(p.similar))) {
      if (x.length !== 1 || y.length !== 1 || x[0]!.slice(0, 4) === y[0]!.slice(0, 4)) continue;
      add(x[0]!, y[0]!);
      add(y[0]!, x[0]!);
    }
  }
  return lexicon;
}

/** Up to `most` lower-case words of a space-separated sentence replaced by a synonym of the lexicon (one of its options, picked by position). */
export function replaceSynonyms(sentence: string, lexicon: ReadonlyMap<string, ReadonlySet<string>>, most: number): string | undefined {
  const tokens = sentence.split(' ');
  let done = 0;
  for (const [at, t] of tokens.entries()) {
    if (done >= most) break;
    const options = lexicon.get(t);
    if (!options || STOP.has(t)) continue;
    tokens[at] = [...options].sort()[(at + sentence.length) % options.size]!;
    done++;
  }
  return done > 0 ? tokens.join(' ') : undefined;
}

const MOVES = [moveOpening, swapCoordinated, frontClause, possessive];
const SWAPS = [swapNames, swapAroundRelation];

/**
 * Per sentence: synonyms put in and a meaning-keeping move made (`synonym-move`, positive), or
 * synonyms put in and two roles swapped (`synonym-swap`, negative); at most `perRule` of each.
 * `lexiconOf` gives the lexicon a sentence may use (e.g. none read from pairs of its own fold).
 */
export function synonymRewordings(sentences: readonly string[], lexiconOf: (sentence: string) => ReadonlyMap<string, ReadonlySet<string>>, perRule: number): Rewording[] {
  const out: Rewording[] = [];
  const made = { 'synonym-move': 0, 'synonym-swap': 0 };
  for (const a of sentences) {
    const replaced = replaceSynonyms(a, lexiconOf(a), 2);
    if (!replaced) continue;
    const moved = MOVES.map((move) => move(replaced)).find((b) => b !== undefined && b !== replaced);
    if (moved && made['synonym-move'] < perRule) {
      out.push({ a, b: moved, duplicate: true, rule: 'synonym-move' });
      made['synonym-move']++;
    }
    const swapped = SWAPS.map((swap) => swap(replaced)).find((b) => b !== undefined && b !== replaced);
    if (swapped && made['synonym-swap'] < perRule) {
      out.push({ a, b: swapped, duplicate: false, rule: 'synonym-swap' });
      made['synonym-swap']++;
    }
  }
  return out;
}
