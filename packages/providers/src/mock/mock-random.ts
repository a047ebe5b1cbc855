/** FNV-1a, 32 bit: a stable, fast seed from the prompt text. */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const words = [
  'the', 'gateway', 'routes', 'each', 'request', 'to', 'a', 'model', 'that', 'answers', 'quickly', 'and',
  'cheaply', 'while', 'keeping', 'quality', 'high', 'every', 'token', 'streams', 'back', 'with', 'cost',
  'metadata', 'so', 'teams', 'can', 'see', 'what', 'happened', 'cache', 'hits', 'save', 'money', 'when',
  'prompts', 'repeat', 'providers', 'fail', 'over', 'gracefully', 'under', 'load', 'latency', 'stays', 'low',
  'for', 'users', 'who', 'wait', 'on', 'results', 'clear', 'simple', 'useful', 'reliable',
] as const;

export function pickWord(random: () => number): string {
  return words[Math.floor(random() * words.length)]!;
}

/** `count` word tokens forming sentences: leading space on all but the first, full stops at sentence ends. */
export function generateWords(random: () => number, count: number): string[] {
  const tokens: string[] = new Array(count);
  let sentenceLeft = 0;
  for (let i = 0; i < count; i++) {
    let word = pickWord(random);
    if (sentenceLeft === 0) {
      word = word[0]!.toUpperCase() + word.slice(1);
      sentenceLeft = 6 + Math.floor(random() * 8);
    }
    sentenceLeft--;
    if (sentenceLeft === 0 || i === count - 1) word += '.';
    tokens[i] = i === 0 ? word : ` ${word}`;
  }
  return tokens;
}

/** Splits text into ~4-character tokens, the usual chars-per-token ratio of BPE tokenisers. */
export function chunkText(text: string): string[] {
  return text.match(/[\s\S]{1,4}/g) ?? [];
}
