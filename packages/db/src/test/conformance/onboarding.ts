import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { derivedOnboardingSteps } from '../../repositories/onboarding-steps.js';
import { createTestOrg, type GetDb, newDecision, newKeyInput, newPasskey, newUsageEvent, newUser } from '../fixtures.js';

export function onboardingConformance(getDb: GetDb): void {
  it('derives when each step first happened from the organisation’s own rows', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const other = await createTestOrg(db);
    const none = await db.onboarding.firstOccurrences(org.id, derivedOnboardingSteps);
    expect(Object.values(none)).toEqual(derivedOnboardingSteps.map(() => null));

    // Another organisation's activity counts for nothing here.
    await db.keys.create(newKeyInput(other.id));
    await db.usage.insertMany([newUsageEvent(other.id, { cacheHit: true })]);

    const key = await db.keys.create(newKeyInput(org.id));
    const early = new Date(Date.now() - 3_600_000);
    await db.usage.insertMany([newUsageEvent(org.id, { status: 429 }), newUsageEvent(org.id, { status: 200, createdAt: early })]);
    await db.decisions.insertMany([newDecision(org.id, { outcome: 'ok', source: 'CacheHit', createdAt: new Date(early.getTime() + 1000) })]);
    await db.providerKeys.put(org.id, { provider: 'openai', ciphertext: randomBytes(20), iv: randomBytes(12), tag: randomBytes(16), keyVersion: 'k1', last4: 'abcd' });
    await db.slos.put({ orgId: org.id, name: 'availability', metric: 'availability', threshold: 0.99, target: 0.9, windowDays: 7 });
    await db.outputConfigs.put(org.id, { outputVerification: 'native', healing: true, minConfidence: 0, maxReasks: 1, crossModelCandidate: null });
    // A passkey of another organisation's user counts for nothing here.
    await db.passkeys.create(newPasskey((await db.dashboardUsers.create(newUser(other.id))).id));
    const passkey = await db.passkeys.create(newPasskey((await db.dashboardUsers.create(newUser(org.id))).id));

    const seen = await db.onboarding.firstOccurrences(org.id, derivedOnboardingSteps);
    expect(seen.create_api_key?.getTime()).toBe(key.createdAt.getTime());
    expect(seen.first_request?.getTime()).toBe(early.getTime());
    expect(seen.first_cache_hit?.getTime()).toBe(early.getTime() + 1000);
    for (const step of ['add_provider_key', 'create_slo', 'configure_output'] as const) expect(seen[step]).toBeInstanceOf(Date);
    expect(seen.register_passkey?.getTime()).toBe(passkey.createdAt.getTime());
    expect(await db.onboarding.firstOccurrences(org.id, ['create_slo'])).toEqual({ create_slo: seen.create_slo });
  });

  it('keeps the first completion of a step; only manual ones can be unmarked', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const first = new Date(Date.now() - 60_000);
    await db.onboarding.record(org.id, [
      { step: 'go_live', source: 'manual', completedAt: first },
      { step: 'create_api_key', source: 'derived', completedAt: first },
    ]);
    await db.onboarding.record(org.id, [{ step: 'go_live', source: 'manual', completedAt: new Date() }]);
    expect(await db.onboarding.completed(org.id)).toEqual([
      { step: 'create_api_key', source: 'derived', completedAt: first },
      { step: 'go_live', source: 'manual', completedAt: first },
    ]);
    expect(await db.onboarding.unmark(org.id, 'create_api_key')).toBe(false);
    expect(await db.onboarding.unmark(org.id, 'go_live')).toBe(true);
    expect(await db.onboarding.unmark(org.id, 'go_live')).toBe(false);
    expect((await db.onboarding.completed(org.id)).map((c) => c.step)).toEqual(['create_api_key']);
    expect(await db.onboarding.completed('not-a-uuid')).toEqual([]);
  });
}
