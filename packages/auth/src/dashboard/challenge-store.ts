import type { DashboardKv } from './dashboard-store.js';

/** What a challenge was issued for; checked when it comes back signed. */
export type ChallengeRecord = { purpose: 'login'; email: string } | { purpose: 'register'; userId: string };

/**
 * WebAuthn challenges in the shared kv, keyed by the challenge itself: short-lived (TTL) and
 * single-use (taken with an atomic get-and-delete), so a replayed response finds nothing, on
 * any instance.
 */
export class ChallengeStore {
  constructor(private readonly settings: { kv: Pick<DashboardKv, 'set' | 'take'>; ttlMs: number }) {}

  async put(challenge: string, record: ChallengeRecord): Promise<void> {
    await this.settings.kv.set(key(challenge), JSON.stringify(record), { ttlMs: this.settings.ttlMs });
  }

  /** The record, once; undefined when unknown, expired or already taken. */
  async take(challenge: string): Promise<ChallengeRecord | undefined> {
    const value = await this.settings.kv.take(key(challenge));
    return value === null ? undefined : (JSON.parse(value) as ChallengeRecord);
  }
}

const key = (challenge: string) => `dash:challenge:${challenge}`;
