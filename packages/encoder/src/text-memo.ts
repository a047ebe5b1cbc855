import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** Computes each distinct text's vector once: recent ones from an LRU, concurrent ones shared. */
export interface TextMemo<T = Float32Array> {
  get(text: string): Promise<T>;
}

/**
 * Keys are SHA-256 digests of the text, so a long prompt costs 44 bytes of key, not its length.
 * A failed computation is not remembered. `size` 0 keeps only the sharing of concurrent calls.
 */
export function createTextMemo<T extends object = Float32Array>(size: number, compute: (text: string) => Promise<T>): TextMemo<T> {
  const recent = size > 0 ? new LRUCache<string, T>({ max: size }) : undefined;
  const inFlight = new Map<string, Promise<T>>();
  return {
    get(text) {
      const key = createHash('sha256').update(text).digest('base64');
      const known = recent?.get(key);
      if (known) return Promise.resolve(known);
      let pending = inFlight.get(key);
      if (!pending) {
        pending = compute(text).then(
          (vector) => {
            inFlight.delete(key);
            recent?.set(key, vector);
            return vector;
          },
          (error: unknown) => {
            inFlight.delete(key);
            throw error;
          },
        );
        inFlight.set(key, pending);
      }
      return pending;
    },
  };
}
