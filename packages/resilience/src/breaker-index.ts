import type { Kv } from '@svc/kv';
import type { BreakerKeys } from './breaker-keys.js';

/**
 * The set of breaker keys any instance has recorded, kept as a Kv stream with one entry per key
 * (guarded by a marker), because the Kv has no key listing and the control plane must list
 * breakers it never called itself. Bounded by the number of provider/model pairs.
 */
export class BreakerIndex {
  private readonly registered = new Map<string, Promise<void>>();

  constructor(
    private readonly kv: Kv,
    private readonly layout: BreakerKeys,
  ) {}

  /** Adds `key` once per process; later calls return the same (settled) promise. */
  register(key: string): Promise<void> {
    const done = this.registered.get(key);
    if (done !== undefined) return done;
    const marker = this.layout.known(key);
    const promise = this.kv.setIfAbsent(marker, '1').then(async (won) => {
      if (!won) return;
      try {
        await this.kv.append(this.layout.index(), { key });
      } catch (error) {
        // Without the entry the marker would hide the key from every list() forever.
        await this.kv.delete(marker).catch(() => {});
        throw error;
      }
    });
    this.registered.set(key, promise);
    promise.catch(() => this.registered.delete(key));
    return promise;
  }

  /** Every registered key (this process's and the shared stream's), sorted. */
  async keys(): Promise<string[]> {
    const keys = new Set(this.registered.keys());
    let after = '0';
    for (;;) {
      const entries = await this.kv.read(this.layout.index(), after, 500);
      for (const entry of entries) {
        const key = entry.fields.key;
        if (key !== undefined) keys.add(key);
      }
      const last = entries.at(-1);
      if (last === undefined || entries.length < 500) break;
      after = last.id;
    }
    return [...keys].sort();
  }
}
