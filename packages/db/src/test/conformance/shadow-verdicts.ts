import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NewShadowVerdict } from '../../repositories/shadow-verdicts.js';
import { createTestOrg, type GetDb, newDecision, newUsageEvent } from '../fixtures.js';

const since = () => new Date(Date.now() - 60_000);

function verdict(orgId: string, outcome: string, overrides: Partial<NewShadowVerdict> = {}): NewShadowVerdict {
  return { orgId, requestId: 'req_v', taskKind: 'code', incumbentModel: 'm/dear', candidateModel: 'm/cheap', judgeModel: 'm/judge', verdict: outcome, candidateCostUsd: 0.01, judgeCostUsd: 0.02, ...overrides };
}

export function shadowVerdictConformance(getDb: GetDb): void {
  it("counts an organisation's verdicts per task kind and candidate, and each pair from both sides", async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const other = await createTestOrg(db);
    for (const outcome of ['candidate', 'candidate', 'incumbent', 'tie']) await db.shadowVerdicts.insert(verdict(org.id, outcome));
    await db.shadowVerdicts.insert(verdict(other.id, 'incumbent'));
    expect(await db.shadowVerdicts.judged({ since: since(), orgId: org.id })).toEqual([
      { taskKind: 'code', model: 'm/cheap', samples: 4, wins: 2, losses: 1, ties: 1, candidateCostUsd: expect.closeTo(0.04, 9), judgeCostUsd: expect.closeTo(0.08, 9) },
    ]);
    expect(await db.shadowVerdicts.headToHead({ since: since(), orgId: org.id })).toEqual([
      { taskKind: 'code', model: 'm/cheap', against: 'm/dear', samples: 4, wins: 2, ties: 1 },
      { taskKind: 'code', model: 'm/dear', against: 'm/cheap', samples: 4, wins: 1, ties: 1 },
    ]);
    expect(await db.shadowVerdicts.judged({ since: since(), orgId: 'not-a-uuid' })).toEqual([]);
  });

  it('names the model that served most of each task family, and leaves shadow rows out of the traffic figures', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const id = `req_${randomUUID()}`;
    await db.decisions.insertMany([
      newDecision(org.id, { requestId: id, model: 'm/a', taskFamily: 'code', outcome: 'ok' }),
      newDecision(org.id, { model: 'm/b', taskFamily: 'code', outcome: 'ok' }),
      newDecision(org.id, { model: 'm/b', taskFamily: 'code', outcome: 'ok' }),
    ]);
    expect(await db.shadowVerdicts.servedRoutes({ since: since(), orgId: org.id })).toEqual([{ taskKind: 'code', model: 'm/b', decisions: 2 }]);
    await db.usage.insertMany([
      newUsageEvent(org.id, { requestId: id, costUsd: 1 }),
      newUsageEvent(org.id, { requestId: `${id}:shadow`, costUsd: 10, latencyMs: 99_999 }),
      newUsageEvent(org.id, { requestId: `${id}:judge:1`, costUsd: 10 }),
    ]);
    const figures = await db.traffic.summary({ since: since(), orgId: org.id });
    expect(figures.costUsd).toBe(1);
    expect(figures.latencyP99Ms).toBeLessThan(99_999);
    // The ledger itself keeps them, as their own category.
    expect((await db.usage.summary(org.id, since())).costUsd).toBe(21);
  });
}

export function judgeAgreementConformance(getDb: GetDb): void {
  it("reads an organisation's decisive verdicts against the feedback on the same requests", async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const other = await createTestOrg(db);
    // [verdict, feedback score]: contradicted twice (the served answer won but got thumbs down; it
    // was beaten but got thumbs up), agreed twice; a tie and a neutral score say nothing.
    const cases: [string, number | undefined][] = [['incumbent', 0], ['candidate', 1], ['incumbent', 1], ['candidate', 0.2], ['tie', 0], ['incumbent', 0.5], ['candidate', undefined]];
    for (const [outcome, score] of cases) {
      const event = newUsageEvent(org.id);
      await db.usage.insertMany([event]);
      await db.shadowVerdicts.insert(verdict(org.id, outcome, { requestId: event.requestId }));
      if (score !== undefined) await db.feedback.record({ requestId: event.requestId, orgId: org.id, keyId: null, score, thumbs: null, comment: null });
    }
    await db.shadowVerdicts.insert(verdict(other.id, 'incumbent'));
    expect(await db.shadowVerdicts.judgeAgreement({ since: since(), orgId: org.id })).toEqual({ decisive: 4, disagree: 2 });
    expect(await db.shadowVerdicts.judgeAgreement({ since: since(), orgId: other.id })).toEqual({ decisive: 0, disagree: 0 });
  });
}
