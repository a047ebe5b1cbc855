/**
 * Lower-cased tokens of a text: runs of letters and digits, accents folded, and each symbol that
 * changes what a question is about on its own (`C++` vs `C`, `%` vs `~`); sentence punctuation,
 * quotes, brackets and dashes are dropped (`"What's C++ 2.0?"` -> `what s c + + 2 0`).
 */
export function wordTokens(text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().match(tokenPattern) ?? [];
}

const tokenPattern = /[\p{L}\p{N}]+|[^\s\p{L}\p{N}\p{P}]|[#%&*+/=@~]/gu;

/** Whether a token is a symbol rather than a word. */
export function isSymbol(token: string): boolean {
  return !/[\p{L}\p{N}]/u.test(token);
}

/**
 * English function words. They carry little of a question's meaning and dominate short texts,
 * so the embedder gives them a small weight instead of dropping them ("to be or not to be").
 * Question words (what, why, how, ...) are deliberately absent: "why X" and "how X" differ.
 */
export const stopwords: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then so of to in on at by for from with about into onto over under ' +
    'as than that this these those there here it its itself i me my mine we us our ours you your ' +
    'yours he him his she her hers they them their theirs one ones is am are was were be been ' +
    'being do does did doing done have has had having can could will would shall should may might ' +
    'must s t d ll re ve m some any all such very just also too get got'
  ).split(' '),
);

/** A light suffix stemmer for word features (plural and verb endings): `hacks`, `hacking` -> `hack`. */
export function stem(word: string): string {
  const n = word.length;
  if (n <= 3) return word;
  if (n > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (n > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (n > 4 && word.endsWith('ed') && !word.endsWith('eed')) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** Words that negate what follows; with `t` after a word ("can't" is `can t`), see {@link isNegation}. */
export const negationWords: ReadonlySet<string> = new Set(['not', 'no', 'never', 'nor', 'without', 'cannot', 'nothing', 'none', 'neither', 'nobody']);

/** Whether `tokens[i]` negates: a negation word, or the `t` of a contraction ("don't"). */
export function isNegation(tokens: readonly string[], i: number): boolean {
  const token = tokens[i]!;
  return negationWords.has(token) || (token === 't' && i > 0);
}
