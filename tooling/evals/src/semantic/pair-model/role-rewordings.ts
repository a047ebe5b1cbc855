/**
 * Rewording pairs generated from training sentences (issue #27's role model): the same words with
 * roles swapped (negatives: who did what to whom changed) and the same meaning with words moved
 * (positives: an adverbial moved, two coordinated words swapped). Sentences are PAWS's style,
 * tokens separated by spaces; each rule returns undefined where it does not apply.
 */

/** A generated pair with the rule that made it. */
export interface Rewording {
  a: string;
  b: string;
  duplicate: boolean;
  rule: string;
}

const FUNCTION = new Set('a an the of to from in on at by for with and or but as is was are were be been than into onto over under after before during since which who that this these those its his her their it he she they'.split(' '));
const isWord = (t: string) => /^[A-Za-z][A-Za-z'-]*$/.test(t);
const isContent = (t: string) => isWord(t) && t.length > 2 && !FUNCTION.has(t.toLowerCase());
const isName = (t: string, at: number) => at > 0 && /^[A-Z][a-z]+$/.test(t) && !FUNCTION.has(t.toLowerCase());

function swapped(tokens: readonly string[], x: number, y: number): string {
  const out = [...tokens];
  [out[x], out[y]] = [out[y]!, out[x]!];
  return out.join(' ');
}

/** Two different names of the sentence, at least two places apart, trade places: "A beat B" / "B beat A". */
export function swapNames(sentence: string): string | undefined {
  const tokens = sentence.split(' ');
  const names = tokens.map((t, at) => (isName(t, at) ? at : -1)).filter((at) => at >= 0);
  for (let p = 0; p < names.length; p++) {
    for (let q = p + 1; q < names.length; q++) {
      const [x, y] = [names[p]!, names[q]!];
      if (y - x >= 2 && tokens[x] !== tokens[y]) return swapped(tokens, x, y);
    }
  }
  return undefined;
}

const RELATION_PATTERNS: readonly (readonly [string, string | undefined])[] = [
  ['from', 'to'],
  ['than', undefined],
  ['of', undefined],
  ['before', undefined],
  ['after', undefined],
];

/** The content words around a relation trade places: "from A to B" / "from B to A", "A than B", "A of B". */
export function swapAroundRelation(sentence: string): string | undefined {
  const tokens = sentence.split(' ');
  for (const [first, second] of RELATION_PATTERNS) {
    for (let at = 1; at + 1 < tokens.length; at++) {
      if (tokens[at] !== first) continue;
      if (second) {
        if (tokens[at + 2] === second && isContent(tokens[at + 1] ?? '') && isContent(tokens[at + 3] ?? '') && tokens[at + 1] !== tokens[at + 3]) return swapped(tokens, at + 1, at + 3);
      } else if (isContent(tokens[at - 1]!) && isContent(tokens[at + 1]!) && tokens[at - 1] !== tokens[at + 1]) {
        return swapped(tokens, at - 1, at + 1);
      }
    }
  }
  return undefined;
}

const OPENERS = new Set(['In', 'On', 'At', 'During', 'After', 'Before', 'Since', 'From', 'By', 'Later', 'Today', 'Originally', 'Eventually']);

/** An opening adverbial moves to the end: "In 1990 , she moved to Paris ." / "She moved to Paris in 1990 ." */
export function moveOpening(sentence: string): string | undefined {
  const tokens = sentence.split(' ');
  const comma = tokens.indexOf(',');
  if (!OPENERS.has(tokens[0]!) || comma < 2 || comma > 8 || tokens.at(-1) !== '.' || comma + 2 >= tokens.length) return undefined;
  const opening = [tokens[0]!.toLowerCase(), ...tokens.slice(1, comma)];
  const rest = tokens.slice(comma + 1, -1);
  const head = rest[0]!;
  rest[0] = /^[a-z]/.test(head) ? head[0]!.toUpperCase() + head.slice(1) : head;
  return [...rest, ...opening, '.'].join(' ');
}

const isPlain = (t: string) => /^[a-z]{3,}$/.test(t) && !FUNCTION.has(t);

/** Two coordinated lower-case words, between function words or punctuation, trade places: "the cats and dogs ." / "the dogs and cats ." */
export function swapCoordinated(sentence: string): string | undefined {
  const tokens = sentence.split(' ');
  const bounded = (t: string | undefined) => t === undefined || !isWord(t) || FUNCTION.has(t.toLowerCase());
  for (let at = 1; at + 1 < tokens.length; at++) {
    const [x, y] = [tokens[at - 1]!, tokens[at + 1]!];
    if (tokens[at] === 'and' && isPlain(x) && isPlain(y) && x !== y && bounded(tokens[at - 2]) && bounded(tokens[at + 2])) return swapped(tokens, at - 1, at + 1);
  }
  return undefined;
}

const SUBORDINATORS = new Set(['when', 'while', 'because', 'although', 'if', 'until', 'unless']);

/** A closing subordinate clause moves to the front: "She left , when he arrived ." / "When he arrived , she left ." */
export function frontClause(sentence: string): string | undefined {
  const tokens = sentence.split(' ');
  if (tokens.at(-1) !== '.') return undefined;
  const at = tokens.findIndex((t, k) => k >= 3 && SUBORDINATORS.has(t) && tokens.length - 1 - k >= 3);
  if (at < 0) return undefined;
  const main = tokens.slice(0, tokens[at - 1] === ',' ? at - 1 : at);
  const clause = tokens.slice(at, -1);
  const head = main[0]!;
  if (!/^[A-Z][a-z]+$/.test(head) || !FUNCTION.has(head.toLowerCase())) return undefined;
  const opening = [clause[0]![0]!.toUpperCase() + clause[0]!.slice(1), ...clause.slice(1)];
  return [...opening, ',', head.toLowerCase(), ...main.slice(1), '.'].join(' ');
}

/** "the X of the Y" becomes "the Y 's X" (the same roles, another construction). */
export function possessive(sentence: string): string | undefined {
  const tokens = sentence.split(' ');
  for (let at = 1; at + 3 < tokens.length; at++) {
    const [det, x, of, det2, y] = [tokens[at - 1]!, tokens[at]!, tokens[at + 1]!, tokens[at + 2]!, tokens[at + 3]!];
    if (det.toLowerCase() !== 'the' || of !== 'of' || det2 !== 'the' || !isPlain(x) || !isContent(y)) continue;
    const after = tokens[at + 4];
    if (after !== undefined && isWord(after) && !FUNCTION.has(after.toLowerCase())) continue;
    return [...tokens.slice(0, at - 1), det, y, "'s", x, ...tokens.slice(at + 4)].join(' ');
  }
  return undefined;
}

const RULES: readonly (readonly [string, (s: string) => string | undefined, boolean])[] = [
  ['swap-names', swapNames, false],
  ['swap-around-relation', swapAroundRelation, false],
  ['move-opening', moveOpening, true],
  ['swap-coordinated', swapCoordinated, true],
];

/** Positives of GPTCache's kind, tried and not shipped (out of fold they moved nothing: docs/caching.md): a closing clause fronted, "the X of the Y" / "the Y 's X". */
const MORE_RULES: typeof RULES = [
  ['front-clause', frontClause, true],
  ['possessive', possessive, true],
];

/** Every rule applied to every sentence (at most `perRule` pairs a rule, in sentence order); `more` adds {@link MORE_RULES}. */
export function rewordings(sentences: readonly string[], perRule: number, more = false): Rewording[] {
  const out: Rewording[] = [];
  for (const [rule, make, duplicate] of more ? [...RULES, ...MORE_RULES] : RULES) {
    let made = 0;
    for (const a of sentences) {
      if (made >= perRule) break;
      const b = make(a);
      if (b === undefined || b === a) continue;
      out.push({ a, b, duplicate, rule });
      made++;
    }
  }
  return out;
}
