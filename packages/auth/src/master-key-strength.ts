/** The shortest master key accepted. */
export const masterKeyMinLength = 32;

/** The least estimated entropy of a master key, bits. */
export const masterKeyMinBits = 128;

/**
 * The entropy of `secret` estimated from its own characters: its length times the Shannon
 * entropy of its character frequencies (bits). Repeats and small alphabets count for little
 * (`aaaa…` is 0, a doubled phrase about half); a generated key scores near its true entropy
 * (`openssl rand -base64 32`: about 210, 48 hex characters: about 175). It cannot tell a long
 * phrase from a random string, so a generator is still the way to make one.
 */
export function estimatedEntropyBits(secret: string): number {
  const counts = new Map<string, number>();
  const characters = [...secret];
  for (const character of characters) counts.set(character, (counts.get(character) ?? 0) + 1);
  let bitsPerCharacter = 0;
  for (const count of counts.values()) {
    const p = count / characters.length;
    bitsPerCharacter -= p * Math.log2(p);
  }
  return bitsPerCharacter * characters.length;
}

/**
 * Why a master key is too weak, in a few words, or undefined when it is strong enough: at least
 * {@link masterKeyMinLength} characters and {@link masterKeyMinBits} bits by
 * {@link estimatedEntropyBits}. The master key administers the whole fleet, and its SHA-256 is
 * what a copy of the database would let someone guess at offline.
 */
export function masterKeyWeakness(secret: string): string | undefined {
  const advice = 'generate one, e.g. `openssl rand -base64 32`';
  const length = [...secret].length;
  if (length < masterKeyMinLength) return `must be at least ${masterKeyMinLength} characters (it has ${length}); ${advice}`;
  const bits = Math.floor(estimatedEntropyBits(secret));
  if (bits < masterKeyMinBits) return `is too predictable: about ${bits} bits of entropy where ${masterKeyMinBits} are needed (repeated or few distinct characters); ${advice}`;
  return undefined;
}
