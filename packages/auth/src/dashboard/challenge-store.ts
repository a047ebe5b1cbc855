import { rateLimited } from '@svc/core';
import type { DashboardKv } from './dashboard-store.js';

/** What a challenge was issued for; checked when it comes back signed. */
export type ChallengeRecord = { purpose: 'login'; email: string } | { purpose: 'register'; userId: string };

export interface ChallengeStoreSettings {
  kv: Pick<DashboardKv, 'set' | 'take' | 'consumeWindow'>;
  ttlMs: number;
  /** Challenges issued per TTL window, fleet-wide: the store never holds more than twice this. Default 10,000. */
  maxPerWindow?: number;
}

/**
 * WebAuthn challenges in the shared kv, keyed by the challenge itself: short-lived (TTL) and
 * single-use (taken with an atomic get-and-delete), so a replayed response finds nothing, on
 * any instance. Bounded: past `maxPerWindow` challenges in one TTL window a new one is refused
 * with 429 until the window ends (each source is throttled well before that).
 */
export class ChallengeStore {
  constructor(private readonly settings: ChallengeStoreSettings) {}

  async put(challenge: string, record: ChallengeRecord): Promise<void> {
    const window = await this.settings.kv.consumeWindow('dash:challenges:issued', 1, this.settings.maxPerWindow ?? 10_000, this.settings.ttlMs);
    if (!window.admitted) throw rateLimited('Too many passkey ceremonies are in progress: try again shortly.', window.resetMs / 1000);
    await this.settings.kv.set(key(challenge), JSON.stringify(record), { ttlMs: this.settings.ttlMs });
  }

  /** The record, once; undefined when unknown, expired or already taken. */
  async take(challenge: string): Promise<ChallengeRecord | undefined> {
    const value = await this.settings.kv.take(key(challenge));
    return value === null ? undefined : (JSON.parse(value) as ChallengeRecord);
  }
}

const key = (challenge: string) => `dash:challenge:${challenge}`;
