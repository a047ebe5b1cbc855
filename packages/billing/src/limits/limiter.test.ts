import { type GatewayError, isGatewayError } from '@svc/core';
import { createMemoryKv } from '@svc/kv';
import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter.js';
import type { AdmitRequest, Limits } from './limits.js';
import type { LimitRefusal } from './refusal.js';
import { fakeClock, limits, noLimits, switchableKv } from './test-support.js';

function setup(): { limiter: Limiter; clock: ReturnType<typeof fakeClock> } {
  const clock = fakeClock('2025-06-15T12:00:00Z');
  const kv = createMemoryKv({ now: clock.now });
  return { limiter: new Limiter({ kv, now: clock.now }), clock };
}

function request(l: Limits, estimatedTokens = 100, estimatedCostUsd = 0.01, keyId = 'key_1'): AdmitRequest {
  return { orgId: 'org_1', keyId, limits: l, estimatedTokens, estimatedCostUsd };
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => expect.fail('expected the admission to be refused'),
    (e: unknown) => e,
  );
  if (!isGatewayError(error)) throw error;
  return error;
}

describe('Limiter.admit', () => {
  it('makes no Kv call for an organisation without limits', async () => {
    const kv = switchableKv(createMemoryKv(), () => true);
    const limiter = new Limiter({ kv });
    const reservation = await limiter.admit(request(noLimits));
    await reservation.charge(1000, 1);
    await reservation.settle({ actualTokens: 1000, actualCostUsd: 1 });
    await reservation.release();
    expect(reservation.headers).toEqual({});
    expect(kv.calls).toBe(0);
  });

  it('sends the x-ratelimit-* headers of an admitted request', async () => {
    const { limiter } = setup();
    const reservation = await limiter.admit(request(limits({ rpm: 50, tpm: 10_000 }), 1000));
    expect(reservation.headers).toEqual({
      'x-ratelimit-limit-requests': '50',
      'x-ratelimit-remaining-requests': '49',
      'x-ratelimit-reset-requests': '1.2s',
      'x-ratelimit-limit-tokens': '10000',
      'x-ratelimit-remaining-tokens': '9000',
      'x-ratelimit-reset-tokens': '6s',
    });
  });

  it('admits background work only while half of each per-minute bucket stays for interactive requests', async () => {
    const { limiter, clock } = setup();
    const l = limits({ rpm: 10, tpm: 10_000 });
    const background = (tokens = 100) => limiter.admit({ ...request(l, tokens), background: true });
    for (let i = 0; i < 5; i++) await background();
    const held = await refusal(background());
    expect(held.status).toBe(429);
    // The interactive requests of the same organisation still get the other half.
    for (let i = 0; i < 5; i++) await limiter.admit(request(l));
    await refusal(limiter.admit(request(l)));
    // A line larger than half the TPM runs once the bucket is full again, never starved for good.
    clock.advance(60_000);
    await background(8_000);
    await refusal(background(8_000));
  });

  it('refuses the request over the RPM limit with 429, retry-after and every x-ratelimit-* header', async () => {
    const { limiter, clock } = setup();
    const l = limits({ rpm: 2, tpm: 10_000 });
    await limiter.admit(request(l));
    clock.advance(10_000);
    await limiter.admit(request(l));
    const error = await refusal(limiter.admit(request(l)));
    expect(error.status).toBe(429);
    expect(error.toBody()).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(error.message).toBe('Rate limit exceeded: limit of 2 requests per minute for this organisation reached. Try again in 20 s.');
    // 2 per minute is one every 30 s; the first one was taken 10 s ago. The token bucket was
    // full again before the second request took its 100 tokens (10 000 per minute).
    expect(error.headers).toEqual({
      'retry-after': '20',
      'x-ratelimit-limit-requests': '2',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '50s',
      'x-ratelimit-limit-tokens': '10000',
      'x-ratelimit-remaining-tokens': '9900',
      'x-ratelimit-reset-tokens': '600ms',
    });
    clock.advance(20_000);
    await expect(limiter.admit(request(l))).resolves.toBeDefined();
  });

  it('refuses over the TPM limit with the wait until enough tokens are back', async () => {
    const { limiter } = setup();
    const l = limits({ tpm: 1000 });
    await limiter.admit(request(l, 600));
    const error = await refusal(limiter.admit(request(l, 600)));
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({
      'retry-after': '12',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '400',
      'x-ratelimit-reset-tokens': '36s',
    });
    expect(error.message).toContain('limit of 1000 tokens per minute for this organisation reached');
  });

  it('refuses a request larger than the TPM limit itself, with a message that says so', async () => {
    const { limiter } = setup();
    const error = await refusal(limiter.admit(request(limits({ tpm: 1000 }), 5000)));
    expect(error.status).toBe(429);
    expect(error.headers['retry-after']).toBe('60');
    expect(error.message).toContain('the request needs about 5000 tokens, more than the limit of 1000 tokens per minute');
  });

  it('holds an API key to its own limits too, and reports the binding one', async () => {
    const { limiter } = setup();
    const l = limits({ rpm: 100, keyRpm: 1 });
    const first = await limiter.admit(request(l, 10, 0, 'key_a'));
    expect(first.headers['x-ratelimit-limit-requests']).toBe('1');
    const error = await refusal(limiter.admit(request(l, 10, 0, 'key_a')));
    expect(error.message).toContain('1 requests per minute for this API key');
    expect(error.headers['x-ratelimit-limit-requests']).toBe('1');
    const other = await limiter.admit(request(l, 10, 0, 'key_b'));
    expect(other.headers['x-ratelimit-remaining-requests']).toBe('0');
    expect((await limiter.admit(request(l, 10, 0, 'key_c'))).headers['x-ratelimit-limit-requests']).toBe('1');
  });

  it('charges nothing for a refused request: RPM passes, TPM refuses, the request is not counted', async () => {
    const { limiter } = setup();
    const l = limits({ rpm: 10, tpm: 1000 });
    await limiter.admit(request(l, 900));
    for (let i = 0; i < 5; i += 1) await refusal(limiter.admit(request(l, 900)));
    const next = await limiter.admit(request(l, 50));
    expect(next.headers['x-ratelimit-remaining-requests']).toBe('8');
    expect(next.headers['x-ratelimit-remaining-tokens']).toBe('50');
  });

  it("refuses with 402 budget_exceeded when the estimate does not fit the month budget, saying it is the request's reserved maximum", async () => {
    const { limiter } = setup();
    const l = limits({ rpm: 10, monthlyBudgetUsd: 1 });
    await limiter.admit(request(l, 100, 0.6));
    const error = await refusal(limiter.admit(request(l, 100, 0.6)));
    expect(error.status).toBe(402);
    expect(error.toBody()).toEqual({
      type: 'billing_error',
      code: 'budget_exceeded',
      param: null,
      message:
        "This request's reserved maximum, $0.60 (its prompt and max_tokens at the model's prices), does not fit the $0.40 left of the monthly budget " +
        '($1.00 for 2025-06, $0.00 spent and $0.60 held by requests in progress). Lower max_tokens, or wait for requests in progress to settle.',
    });
    expect(error.headers).toEqual({});
    const cheap = await limiter.admit(request(l, 100, 0.4));
    expect(cheap.headers['x-ratelimit-remaining-requests']).toBe('8');
  });

  it('refuses with 402 quota_exceeded when the estimate does not fit the month token quota', async () => {
    const { limiter } = setup();
    const l = limits({ tokenQuota: 1000 });
    const first = await limiter.admit(request(l, 700));
    await first.settle({ actualTokens: 800, actualCostUsd: 0 });
    const error = await refusal(limiter.admit(request(l, 300)));
    expect(error.status).toBe(402);
    expect(error.code).toBe('quota_exceeded');
    expect(error.message).toBe(
      'This request may use up to 300 tokens (its prompt and max_tokens), more than the 200 left of the monthly token quota (1000 tokens for 2025-06, 800 used and 0 held by requests in progress). Lower max_tokens, or wait for requests in progress to settle.',
    );
    await expect(limiter.admit(request(l, 200))).resolves.toBeDefined();
  });

  it('answers 402 rather than 429 when both refuse (waiting would not help)', async () => {
    const { limiter } = setup();
    const l = limits({ rpm: 1, monthlyBudgetUsd: 0.5 });
    await limiter.admit(request(l, 10, 0.4));
    const error = await refusal(limiter.admit(request(l, 10, 0.4)));
    expect(error.status).toBe(402);
  });

  it('refuses everything at a limit of 0 without asking the Kv, and allows nothing on a budget of 0', async () => {
    const kv = switchableKv(createMemoryKv(), () => false);
    const limiter = new Limiter({ kv });
    const blocked = await refusal(limiter.admit(request(limits({ rpm: 0 }))));
    expect(blocked.status).toBe(429);
    expect(blocked.headers).toMatchObject({ 'retry-after': '60', 'x-ratelimit-limit-requests': '0' });
    expect(kv.calls).toBe(0);
    const none = await refusal(limiter.admit(request(limits({ monthlyBudgetUsd: 0 }), 1, 0)));
    expect(none.code).toBe('budget_exceeded');
    expect(none.message).toMatch(/^Monthly budget exceeded: \$0\.00 for/);
  });

  it('reports every refusal (rate, budget, quota, a limit of 0) to onRefusal, and no admission', async () => {
    const clock = fakeClock('2025-06-15T12:00:00Z');
    const refusals: LimitRefusal[] = [];
    const limiter = new Limiter({ kv: createMemoryKv({ now: clock.now }), now: clock.now, onRefusal: (refusal) => refusals.push(refusal) });
    const rate = limits({ rpm: 1 });
    await limiter.admit(request(rate));
    await refusal(limiter.admit(request(rate)));
    await refusal(limiter.admit(request(limits({ monthlyBudgetUsd: 0.1 }), 10, 0.5, 'key_2')));
    await refusal(limiter.admit(request(limits({ tokenQuota: 10 }), 500)));
    await refusal(limiter.admit(request(limits({ tpm: 0 }))));
    expect(refusals).toEqual([
      { orgId: 'org_1', keyId: 'key_1', kind: 'rate' },
      { orgId: 'org_1', keyId: 'key_2', kind: 'budget' },
      { orgId: 'org_1', keyId: 'key_1', kind: 'quota' },
      { orgId: 'org_1', keyId: 'key_1', kind: 'rate' },
    ]);
  });

  it('rejects estimates that are not finite non-negative numbers', async () => {
    const { limiter } = setup();
    await expect(limiter.admit(request(limits({ rpm: 1 }), -1))).rejects.toThrow(RangeError);
    await expect(limiter.admit(request(limits({ rpm: 1 }), 1, Number.NaN))).rejects.toThrow(RangeError);
  });
});
