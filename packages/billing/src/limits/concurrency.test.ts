import { randomUUID } from 'node:crypto';
import { isGatewayError } from '@svc/core';
import { type Kv, createMemoryKv, createRedisKv } from '@svc/kv';
import { redisReachable, removeRedisKeys, safeRedisHost } from '@svc/kv/test';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Limiter } from './limiter.js';
import type { AdmitRequest, Limits, MonthSpend } from './limits.js';
import type { Reservation } from './reservation.js';
import { limits } from './test-support.js';

/** Three gateway instances sharing one store: three limiters over three Kv clients (or one in-process Kv). */
function describeInstances(name: string, createKvs: () => Kv[]): void {
  describe(`three instances over ${name}`, () => {
    let kvs: Kv[] = [];
    let limiters: Limiter[] = [];
    const start = () => {
      kvs = createKvs();
      limiters = kvs.map((kv) => new Limiter({ kv }));
      return limiters;
    };
    afterEach(async () => {
      await Promise.all([...new Set(kvs)].map((kv) => kv.close()));
    });

    const orgId = () => `org_${randomUUID()}`;
    const request = (org: string, l: Limits, i: number, estimatedTokens = 10, estimatedCostUsd = 0): AdmitRequest => ({
      orgId: org,
      keyId: `key_${i % 7}`,
      limits: l,
      estimatedTokens,
      estimatedCostUsd,
    });

    it('admit exactly 50 of a burst of 300 against an RPM limit of 50', async () => {
      const instances = start();
      const org = orgId();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 300 }, (_, i) => instances[i % 3]!.admit(request(org, limits({ rpm: 50 }), i))),
      );
      const admitted = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(admitted).toHaveLength(50);
      expect(refused).toHaveLength(250);
      for (const error of refused) {
        if (!isGatewayError(error)) throw error;
        expect(error.status).toBe(429);
        expect(Number(error.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(error.headers['x-ratelimit-remaining-requests']).toBe('0');
      }
    });

    it('admit exactly what the TPM limit holds, counting nothing for the refused', async () => {
      const instances = start();
      const org = orgId();
      const l = limits({ rpm: 1000, tpm: 5000 });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 300 }, (_, i) => instances[i % 3]!.admit(request(org, l, i, 100))),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(50);
      // The 250 refused requests were not counted against the RPM limit (949 left, plus the
      // token refilled every 60 ms since; counting them would leave 699).
      const next = await instances[0]!.admit(request(org, limits({ rpm: 1000 }), 0, 1));
      const remaining = Number(next.headers['x-ratelimit-remaining-requests']);
      expect(remaining).toBeGreaterThanOrEqual(1000 - 51);
      expect(remaining).toBeLessThan(1000 - 51 + 20);
    });

    it('keep spend within the budget when parallel requests settle below their estimates', async () => {
      const instances = start();
      const org = { id: orgId(), monthlyBudgetUsd: 5, tokenQuota: null };
      const l = limits({ monthlyBudgetUsd: org.monthlyBudgetUsd });
      const samples: MonthSpend[] = [];
      let running = true;
      const sampler = (async () => {
        while (running) {
          samples.push(await instances[2]!.spend(org));
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      })();
      let settledUsd = 0;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 200 }, async (_, i) => {
          // Arrivals spread over ~30 ms, so later requests meet budget freed by settled ones.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 30));
          const reservation = await instances[i % 3]!.admit(request(org.id, l, i, 1000, 0.1));
          await stream(reservation, 0.02 + (i % 9) * 0.01);
          settledUsd += 0.02 + (i % 9) * 0.01;
        }),
      );
      running = false;
      await sampler;
      const admitted = outcomes.filter((o) => o.status === 'fulfilled').length;
      expect(admitted).toBeGreaterThanOrEqual(50);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ status: 402 });
      expect(samples.length).toBeGreaterThan(0);
      // Spend and every in-flight reservation together never pass the budget...
      for (const s of samples) expect(s.spentUsd + s.reservedUsd).toBeLessThanOrEqual(5 + 1e-9);
      // ...so spend stays within it, and matches what was settled.
      const final = await instances[0]!.spend(org);
      expect(final.reservedUsd).toBe(0);
      expect(final.spentUsd).toBeLessThanOrEqual(5);
      expect(final.spentUsd).toBeCloseTo(settledUsd, 6);
    });

    it('overspend the budget by no more than the overruns of requests in flight', async () => {
      const instances = start();
      const org = { id: orgId(), monthlyBudgetUsd: 2, tokenQuota: null };
      const l = limits({ monthlyBudgetUsd: org.monthlyBudgetUsd });
      let overrunUsd = 0;
      await Promise.allSettled(
        Array.from({ length: 100 }, async (_, i) => {
          const reservation = await instances[i % 3]!.admit(request(org.id, l, i, 1000, 0.1));
          overrunUsd += 0.05;
          await stream(reservation, 0.15);
        }),
      );
      const { spentUsd } = await instances[1]!.spend(org);
      expect(spentUsd).toBeGreaterThan(2);
      expect(spentUsd).toBeLessThanOrEqual(2 + overrunUsd + 1e-9);
      await expect(instances[0]!.admit(request(org.id, l, 0, 1, 0))).rejects.toMatchObject({ code: 'budget_exceeded' });
    });
  });
}

/** A streamed answer: a little later, tokens and cost charged in three chunks, then settled. */
async function stream(reservation: Reservation, costUsd: number): Promise<void> {
  for (let chunk = 0; chunk < 3; chunk += 1) {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    await reservation.charge(400, costUsd / 3);
  }
  await reservation.settle({ actualTokens: 1200, actualCostUsd: costUsd });
}

describeInstances('one in-process Kv', () => {
  const kv = createMemoryKv();
  return [kv, kv, kv];
});

const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl !== undefined && redisUrl !== '') {
  const runPrefix = `svc-test:limits:${randomUUID()}:`;
  if (await redisReachable(redisUrl)) {
    describeInstances('one Redis (three connections)', () =>
      Array.from({ length: 3 }, () => createRedisKv({ url: redisUrl, keyPrefix: runPrefix })),
    );
    afterAll(() => removeRedisKeys(redisUrl, runPrefix));
  } else if (process.env.CI === 'true') {
    it('reaches the Redis at TEST_REDIS_URL (required in CI)', () => {
      expect.fail(`TEST_REDIS_URL (${safeRedisHost(redisUrl)}) is set but does not answer PING`);
    });
  }
}
