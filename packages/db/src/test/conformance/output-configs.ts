import { expect, it } from 'vitest';
import { createTestOrg, type GetDb, newKeyInput } from '../fixtures.js';

export function outputConfigConformance(getDb: GetDb): void {
  it('stores, replaces and reads back an organisation’s config; none until stored', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    expect(await db.outputConfigs.get(org.id)).toBeUndefined();
    expect(await db.outputConfigs.get('not-a-uuid')).toBeUndefined();
    const config = { outputVerification: 'native' as const, healing: false, minConfidence: 0.8, maxReasks: 2, crossModelCandidate: 'openai/gpt-4o' };
    const stored = await db.outputConfigs.put(org.id, config);
    expect(stored).toMatchObject({ orgId: org.id, ...config });
    const replaced = await db.outputConfigs.put(org.id, { ...config, outputVerification: 'auto', crossModelCandidate: null });
    expect(replaced).toMatchObject({ outputVerification: 'auto', crossModelCandidate: null, createdAt: stored.createdAt });
    expect(await db.outputConfigs.get(org.id)).toEqual(replaced);
  });

  it('rides along with the key lookup (null when the organisation has none)', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const input = newKeyInput(org.id);
    await db.keys.create(input);
    expect((await db.keys.findByHash(input.keyHash))?.org.outputConfig).toBeNull();
    const config = { outputVerification: 'cross_model' as const, healing: true, minConfidence: 0.5, maxReasks: 3, crossModelCandidate: null };
    await db.outputConfigs.put(org.id, config);
    expect((await db.keys.findByHash(input.keyHash))?.org.outputConfig).toEqual(config);
  });

  it('rejects a config of an organisation that does not exist', async () => {
    const config = { outputVerification: 'auto' as const, healing: true, minConfidence: 0, maxReasks: 1, crossModelCandidate: null };
    await expect(getDb().outputConfigs.put('00000000-0000-4000-8000-000000000000', config)).rejects.toThrow();
  });
}
