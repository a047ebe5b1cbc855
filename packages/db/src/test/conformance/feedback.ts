import { expect, it } from 'vitest';
import { type GetDb, createTestOrg, newDecision, newUsageEvent } from '../fixtures.js';

export function feedbackConformance(getDb: GetDb): void {
  it("records a request's feedback once beside its ledger row, with the decision's task family", async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const event = newUsageEvent(org.id, { model: 'acme/small' });
    await db.usage.insertMany([event]);
    await db.decisions.insertMany([newDecision(org.id, { requestId: event.requestId, model: 'acme/small', taskFamily: 'code' })]);
    const feedback = { requestId: event.requestId, orgId: org.id, keyId: 'key_1', score: 1, thumbs: 'up' as const, comment: 'good' };
    const created = await db.feedback.record(feedback);
    expect(created).toMatchObject({ status: 'created', feedback: { ...feedback, model: 'acme/small', taskFamily: 'code' } });
    expect(await db.feedback.record(feedback)).toMatchObject({ status: 'same', feedback: { score: 1 } });
    expect(await db.feedback.record({ ...feedback, score: 0, thumbs: 'down' })).toMatchObject({ status: 'conflict', feedback: { score: 1, thumbs: 'up' } });
    expect(await db.feedback.get(org.id, event.requestId)).toMatchObject({ score: 1, comment: 'good' });
  });

  it("answers not_found for an unknown request and another organisation's, and keeps a request without a decision", async () => {
    const db = getDb();
    const owner = await createTestOrg(db);
    const other = await createTestOrg(db);
    const event = newUsageEvent(owner.id);
    await db.usage.insertMany([event]);
    const feedback = { requestId: event.requestId, orgId: other.id, keyId: null, score: 0.5, thumbs: null, comment: null };
    expect(await db.feedback.record(feedback)).toEqual({ status: 'not_found' });
    expect(await db.feedback.record({ ...feedback, requestId: 'req_unknown' })).toEqual({ status: 'not_found' });
    expect(await db.feedback.record({ ...feedback, orgId: 'not-a-uuid' })).toEqual({ status: 'not_found' });
    expect(await db.feedback.get(other.id, event.requestId)).toBeUndefined();
    expect(await db.feedback.record({ ...feedback, orgId: owner.id })).toMatchObject({ status: 'created', feedback: { taskFamily: null, model: event.model } });
  });
}
