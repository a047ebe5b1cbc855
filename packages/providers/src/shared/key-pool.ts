import { createHash } from 'node:crypto';

/** A key's stable identity: 16 hex digits of its SHA-256 (never the key), the same wherever the key sits in a pool. */
export const keyFingerprint = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 16);

/** Round-robin over a provider's keys. The pipeline's call stage decides fall-through. */
export class KeyPool {
  private next = 0;
  private fingerprints: readonly string[] | undefined;

  constructor(readonly keys: readonly string[]) {
    if (keys.length === 0) throw new Error('A key pool needs at least one key.');
  }

  get size(): number {
    return this.keys.length;
  }

  /** The next key in turn, with its index in the pool. */
  take(): { key: string; index: number } {
    const index = this.next;
    this.next = (this.next + 1) % this.keys.length;
    return { key: this.keys[index]!, index };
  }

  /** The fingerprint ({@link keyFingerprint}) of the key at `index`. */
  fingerprint(index: number): string {
    this.fingerprints ??= this.keys.map(keyFingerprint);
    return this.fingerprints[index]!;
  }

  /** The key whose fingerprint is `fingerprint`, if the pool still holds it. */
  byFingerprint(fingerprint: string): string | undefined {
    this.fingerprints ??= this.keys.map(keyFingerprint);
    const index = this.fingerprints.indexOf(fingerprint);
    return index < 0 ? undefined : this.keys[index];
  }
}
