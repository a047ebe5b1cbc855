import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
interface Feedback {
  object: string;
  request_id: string;
  score: number;
  thumbs: string | null;
  comment: string | null;
  model: string;
  task_kind: string | null;
}

/** Issue 28 part 2: `POST /v1/feedback` through the openai SDK's raw post, as a client adds it next to its chat calls. */
describe('POST /v1/feedback (openai SDK, mock provider)', () => {
  let gateway: Gateway;
  let orgA: string;
  let a: OpenAI;
  let chatOnly: OpenAI;
  let b: OpenAI;

  const tenant = async (name: string, scopes: string[][]) => {
    const org = await adminCall<{ id: string }>(gateway.controlUrl, 'POST', '/v1/admin/orgs', { name: `${name}-${Date.now()}` });
    const clients = [];
    for (const list of scopes) {
      const key = await adminCall<{ key: string }>(gateway.controlUrl, 'POST', '/v1/admin/keys', { org_id: org.id, scopes: list });
      clients.push(new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: key.key, maxRetries: 0 }));
    }
    return { orgId: org.id, clients };
  };
  /** A chat answer's request id; its ledger row may still be queued (feedback right after the answer must find it). */
  const answered = async (client: OpenAI, content = 'Write a Python function that reverses a linked list.') => {
    const { response } = await client.chat.completions.create({ model: 'svc/auto', messages: [{ role: 'user', content }] }).withResponse();
    return response.headers.get('x-svc-request-id')!;
  };
  const send = (client: OpenAI, body: Record<string, unknown>) => client.post<Feedback>('/feedback', { body }).withResponse();

  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1', SVC_CACHE_TTL_SECS: '0' });
    const first = await tenant('feedback-a', [['inference:chat', 'feedback:write'], ['inference:chat']]);
    orgA = first.orgId;
    [a, chatOnly] = first.clients as [OpenAI, OpenAI];
    b = (await tenant('feedback-b', [['inference:chat', 'feedback:write']])).clients[0]!;
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
  });

  it('records thumbs beside the ledger row once, answers a repeat with what is stored and other feedback with 409', async () => {
    const id = await answered(a);
    const first = await send(a, { request_id: id, thumbs: 'up', comment: 'worked first time' });
    expect(first.response.status).toBe(201);
    expect(first.data).toMatchObject({ object: 'feedback', request_id: id, score: 1, thumbs: 'up', comment: 'worked first time', task_kind: 'code' });
    const again = await send(a, { request_id: id, thumbs: 'up', comment: 'worked first time' });
    expect(again.response.status).toBe(200);
    expect(again.data).toEqual(first.data);
    await expect(send(a, { request_id: id, score: 0.2 })).rejects.toMatchObject({ status: 409, code: 'conflict', param: 'request_id' });
    const stored = await gateway.runtime.db.feedback.get(orgA, id);
    expect(stored).toMatchObject({ score: 1, thumbs: 'up', model: first.data.model, taskFamily: 'code' });
    // The learner was taught the first score once (the repeat and the refused one add nothing).
    const learned = gateway.runtime.requestFeedback.learner.router.learner!.serialize().feedback.filter((row) => row[0] === orgA);
    expect(learned).toEqual([[orgA, 'code', first.data.model, 1, 1]]);
  });

  it('takes a score in [0, 1] and refuses a bad body with 400 naming the field', async () => {
    const id = await answered(a, 'Summarise the plot of Hamlet in two sentences.');
    await expect(send(a, { request_id: id, score: 1.5 })).rejects.toMatchObject({ status: 400, param: 'score' });
    await expect(send(a, { request_id: id, score: 0.5, thumbs: 'up' })).rejects.toMatchObject({ status: 400, param: 'thumbs' });
    await expect(send(a, { request_id: id })).rejects.toMatchObject({ status: 400, param: 'score' });
    await expect(send(a, { request_id: id, score: 0.5, rating: 5 })).rejects.toMatchObject({ status: 400, param: 'rating' });
    await expect(send(a, { request_id: id, score: 0.5, comment: 'a\u0000b' })).rejects.toMatchObject({ status: 400, param: 'comment' });
    const scored = await send(a, { request_id: id, score: 0.5 });
    expect(scored.response.status).toBe(201);
    expect(scored.data).toMatchObject({ score: 0.5, thumbs: null, comment: null });
  });

  it("is scoped to the caller's organisation: another organisation's request id is the same 404 as an unknown one", async () => {
    const id = await answered(a, 'Translate "good morning" into French.');
    const foreign = send(b, { request_id: id, thumbs: 'down' });
    await expect(foreign).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(foreign).rejects.toMatchObject({ status: 404, param: 'request_id' });
    await expect(send(b, { request_id: 'req_unknown', thumbs: 'down' })).rejects.toMatchObject({ status: 404, param: 'request_id' });
    expect(await gateway.runtime.db.feedback.get(orgA, id)).toBeUndefined();
  });

  it('needs the feedback:write scope', async () => {
    const id = await answered(chatOnly, 'What is the capital of Peru?');
    await expect(send(chatOnly, { request_id: id, thumbs: 'up' })).rejects.toMatchObject({ status: 403, code: 'insufficient_scopes' });
  });
});
