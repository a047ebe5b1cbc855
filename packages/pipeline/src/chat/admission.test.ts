import { Limiter } from '@svc/billing';
import { createMemoryKv } from '@svc/kv';
import { describe, expect, it } from 'vitest';
import { answering, caller, request, setup } from '../test/gateway-harness.js';

describe('admission under a small TPM limit', () => {
  it('admits a request without max_tokens that fits the limit, and still refuses one whose own max_tokens exceeds it', async () => {
    const limiter = new Limiter({ kv: createMemoryKv() });
    const { gateway, context } = setup([answering('groq')], undefined, { limiter });
    const small = { ...caller, org: { ...caller.org, tpmLimit: 1000 } };
    const answer = await gateway.chat(request({ messages: [{ role: 'user', content: 'hi' }] }), { ...context('proxy'), caller: small });
    expect(answer.kind).toBe('json');
    await expect(gateway.chat(request({ maxTokens: 5000 }), { ...context('proxy'), caller: small })).rejects.toMatchObject({ status: 429 });
  });
});
