import { describe, expect, it, vi } from 'vitest';

vi.mock('ioredis', () => {
  throw new Error('ioredis was loaded');
});

describe('ioredis is loaded on first use', () => {
  it('is not loaded by importing the package or using the in-process kv', async () => {
    const { createMemoryKv } = await import('./index.js');
    const kv = createMemoryKv();
    await kv.set('a', '1');
    expect(await kv.get('a')).toBe('1');
  });
});
