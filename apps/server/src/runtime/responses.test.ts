import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.js';
import { createRuntime } from './runtime.js';

const base = { SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' };
const DAY_MS = 86_400_000;

describe('kept responses in the runtime', () => {
  it('reads SVC_RESPONSES_TTL_DAYS (default 30, at least 1)', () => {
    expect(parseEnv(base).SVC_RESPONSES_TTL_DAYS).toBe(30);
    expect(parseEnv({ ...base, SVC_RESPONSES_TTL_DAYS: '7' }).SVC_RESPONSES_TTL_DAYS).toBe(7);
    expect(() => parseEnv({ ...base, SVC_RESPONSES_TTL_DAYS: '0' })).toThrow(/SVC_RESPONSES_TTL_DAYS/);
  });

  it('sweeps expired responses when it starts, and keeps live ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-responses-'));
    const first = await createRuntime(parseEnv({ ...base, SVC_DATA_DIR: dir }));
    const org = await first.db.orgs.ensure('responses-sweep');
    const row = (id: string, expiresAt: Date) => ({ id, orgId: org.id, model: 'm', status: 'completed', response: { id }, inputItems: [], messages: [], createdAt: new Date(), expiresAt });
    await first.db.responses.save(row('resp_expired', new Date(Date.now() - 1000)));
    await first.db.responses.save(row('resp_live', new Date(Date.now() + DAY_MS)));
    expect(first.responses.ttlDays).toBe(30);
    await first.close();

    const second = await createRuntime(parseEnv({ ...base, SVC_DATA_DIR: dir }));
    try {
      // Seen from a day ago the expired row would still be served: only the sweep removes it.
      const yesterday = new Date(Date.now() - DAY_MS);
      await expect.poll(() => second.db.responses.get(org.id, 'resp_expired', yesterday)).toBeUndefined();
      expect(await second.db.responses.get(org.id, 'resp_live')).toMatchObject({ id: 'resp_live' });
    } finally {
      await second.close();
    }
  });
});
