import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.js';
import { createRuntime } from './runtime.js';

describe('createRuntime', () => {
  it('starts with a first breaker cooldown longer than the default ceiling', async () => {
    const runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_BREAKER_COOLDOWN_MS: '600000' }));
    try {
      expect((await runtime.readiness()).ready).toBe(true);
    } finally {
      await runtime.close();
    }
  });
});
