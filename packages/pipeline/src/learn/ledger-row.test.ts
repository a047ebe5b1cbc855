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
});
