import { describe, expect, it } from 'vitest';
import { answering, request, setup } from '../test/gateway-harness.js';
import { hashEndUser } from './access-record.js';

describe('the ledger row of a request', () => {
  it('carries the end user as its hash (never the id) and what memory injected, null where memory did not run', async () => {
    const { gateway, context, usage } = setup([answering('groq')]);
    await gateway.chat(request({ user: 'alice@example.com' }), context('proxy'));
    await gateway.chat(request({}), context('proxy'));
    expect(usage[0]).toMatchObject({ endUser: hashEndUser('org_1', 'alice@example.com'), memoryInjected: null });
    expect(usage[0]!.endUser).toMatch(/^u:[0-9a-f]{32}$/);
    expect(usage[1]).toMatchObject({ endUser: null, memoryInjected: null });
  });

  it('is written with the same keys in the same order as before (no unpriced key when the model is priced)', async () => {
    const { gateway, context, usage } = setup([answering('groq')]);
    await gateway.chat(request({}), context('proxy'));
    const written = JSON.parse(JSON.stringify(usage[0])) as Record<string, unknown>;
    expect(Object.keys(written)).toEqual([
      'requestId', 'orgId', 'keyId', 'model', 'provider', 'promptTokens', 'completionTokens', 'cachedTokens', 'costUsd', 'baselineCostUsd',
      'cacheHit', 'latencyMs', 'status', 'stream', 'usageEstimated', 'endUser', 'memoryInjected', 'tags', 'createdAt',
    ]);
  });
});
