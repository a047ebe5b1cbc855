import { describe, expect, it, vi } from 'vitest';

vi.mock('undici', () => {
  throw new Error('undici was loaded');
});

describe('undici is loaded by the first provider call', () => {
  it('is not imported with the package, nor by making the client or closing an unused one', async () => {
    const { createUndiciHttpClient } = await import('../index.js');
    const client = createUndiciHttpClient();
    await expect(client.close()).resolves.toBeUndefined();
  });
});
