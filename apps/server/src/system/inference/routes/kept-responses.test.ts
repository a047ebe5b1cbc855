import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

const master = 'sk-svc-kept-responses-test-master-moWyhC7dcQH3o889zd62RxZ6';
// Two days, so the test sees the variable reach the route (the default is 30).
const t = useTestApp(master, { SVC_RESPONSES_TTL_DAYS: '2' });

/** Proxy mode: no memory or cache stage adds to or answers for the prompt, so token counts compare. */
const call = (method: string, path: string, body?: unknown, key = master) =>
  Promise.resolve(
    t.app.request(path, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-intelligence-mode': 'proxy' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );

interface ResponseBody {
  id: string;
  status: string;
  store: boolean;
  previous_response_id: string | null;
  usage: { input_tokens: number };
  output: { type: string; content?: { text: string }[] }[];
  error?: { type: string; code: string; param: string | null };
}

async function create(body: Record<string, unknown>, key = master): Promise<ResponseBody> {
  const response = await call('POST', '/v1/responses', { model: 'mock/mock-value', ...body }, key);
  if (response.status !== 200) throw new Error(await response.text());
  return (await response.json()) as ResponseBody;
}

const textOf = (body: ResponseBody) => body.output.flatMap((item) => item.content ?? []).map((part) => part.text).join('');

describe('kept responses', () => {
  it('keeps a response by default: GET answers the object as created, for the TTL; DELETE forgets it', async () => {
    const created = await create({ input: 'Keep me [mock:reply=Kept.]' });
    expect(created).toMatchObject({ store: true, status: 'completed' });
    const got = await call('GET', `/v1/responses/${created.id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(created);
    const kept = await keptRow(created.id);
    expect(kept!.expiresAt.getTime() - kept!.createdAt.getTime()).toBe(2 * 86_400_000);

    const deleted = await call('DELETE', `/v1/responses/${created.id}`);
    expect(await deleted.json()).toEqual({ id: created.id, object: 'response', deleted: true });
    for (const [method, path] of [['GET', `/v1/responses/${created.id}`], ['DELETE', `/v1/responses/${created.id}`], ['GET', `/v1/responses/${created.id}/input_items`]] as const) {
      const gone = await call(method, path);
      expect(gone.status).toBe(404);
      expect(gone.headers.get('x-error-id')).toMatch(/^err_/);
      expect(await gone.json()).toMatchObject({ error: { type: 'not_found_error' } });
    }
  });

  it('keeps nothing with store: false', async () => {
    const created = await create({ input: 'Forget me', store: false });
    expect(created.store).toBe(false);
    expect((await call('GET', `/v1/responses/${created.id}`)).status).toBe(404);
    const continued = await call('POST', '/v1/responses', { model: 'mock/mock-value', input: 'and?', previous_response_id: created.id });
    expect(continued.status).toBe(404);
  });

  it('continues a kept conversation with the earlier turns and without the earlier instructions', async () => {
    const first = await create({ instructions: 'Answer like a pirate, always, in every single turn.', input: 'My name is Ada. [mock:reply=Hello Ada.]' });
    const second = await create({ input: 'What is my name? [mock:reply=Ada.]', previous_response_id: first.id, model: 'mock/mock-speed' });
    expect(second.previous_response_id).toBe(first.id);
    // The same conversation sent whole, statelessly: the model saw exactly this.
    const whole = await create({
      store: false,
      input: [
        { role: 'user', content: 'My name is Ada. [mock:reply=Hello Ada.]' },
        { role: 'assistant', content: 'Hello Ada.' },
        { role: 'user', content: 'What is my name? [mock:reply=Ada.]' },
      ],
      model: 'mock/mock-speed',
    });
    expect(second.usage.input_tokens).toBe(whole.usage.input_tokens);
    // A third turn carries both earlier ones.
    const third = await create({ input: 'Thanks', previous_response_id: second.id });
    expect(third.usage.input_tokens).toBeGreaterThan(second.usage.input_tokens);
    expect(textOf(second)).toBe('Ada.');
  });

  it('never lets another organisation read, continue or delete a response', async () => {
    const created = await create({ input: 'Private' });
    const other = await t.keyWith(['inference:chat']);
    expect((await call('GET', `/v1/responses/${created.id}`, undefined, other)).status).toBe(404);
    expect((await call('DELETE', `/v1/responses/${created.id}`, undefined, other)).status).toBe(404);
    expect((await call('GET', `/v1/responses/${created.id}/input_items`, undefined, other)).status).toBe(404);
    const continued = await call('POST', '/v1/responses', { model: 'mock/mock-value', input: 'x', previous_response_id: created.id }, other);
    expect(continued.status).toBe(404);
    expect(await continued.json()).toMatchObject({ error: { type: 'not_found_error', param: 'previous_response_id' } });
    expect((await call('GET', `/v1/responses/${created.id}`)).status).toBe(200);
  });

  it('serves no expired response, for reading or continuing', async () => {
    const created = await create({ input: 'Short-lived' });
    const kept = await keptRow(created.id);
    await t.runtime.db.responses.delete(kept!.orgId, created.id);
    await t.runtime.db.responses.save({ ...kept!, expiresAt: new Date(Date.now() - 1000) });
    expect((await call('GET', `/v1/responses/${created.id}`)).status).toBe(404);
    expect((await call('POST', '/v1/responses', { model: 'mock/mock-value', input: 'x', previous_response_id: created.id })).status).toBe(404);
  });

  it('keeps a stream once it completed, and a failed stream not at all', async () => {
    const idOf = (text: string) => /"id":"(resp_[^"]+)"/.exec(text)?.[1];
    const completed = await (await call('POST', '/v1/responses', { model: 'mock/mock-value', input: 'Stream me [mock:reply=Streamed fine.]', stream: true })).text();
    const completedId = idOf(completed)!;
    const got = await call('GET', `/v1/responses/${completedId}`);
    expect(got.status).toBe(200);
    const body = (await got.json()) as ResponseBody;
    expect(body).toMatchObject({ id: completedId, status: 'completed', store: true });
    expect(textOf(body)).toBe('Streamed fine.');
    const continued = await create({ input: 'and?', previous_response_id: completedId });
    expect(continued.previous_response_id).toBe(completedId);

    const failed = await (await call('POST', '/v1/responses', { model: 'mock/mock-value', input: 'Break [mock:stream-error-after=2]', stream: true })).text();
    expect(failed).toContain('response.failed');
    expect((await call('GET', `/v1/responses/${idOf(failed)!}`)).status).toBe(404);
  });

  it('lists the input items with ids, newest first by default, in pages', async () => {
    const created = await create({ input: [{ role: 'developer', content: 'Be kind.' }, { role: 'user', content: 'One' }, { role: 'user', content: [{ type: 'input_text', text: 'Two' }] }] });
    const page = async (query: string) => (await (await call('GET', `/v1/responses/${created.id}/input_items${query}`)).json()) as { data: { id: string; content: { text: string }[] }[]; has_more: boolean; first_id: string; last_id: string };
    const all = await page('');
    expect(all.data.map((item) => item.content[0]!.text)).toEqual(['Two', 'One', 'Be kind.']);
    expect(all).toMatchObject({ object: 'list', has_more: false, first_id: all.data[0]!.id, last_id: all.data[2]!.id });
    const first = await page('?order=asc&limit=2');
    expect(first.data.map((item) => item.content[0]!.text)).toEqual(['Be kind.', 'One']);
    expect(first.has_more).toBe(true);
    const rest = await page(`?order=asc&after=${first.last_id}`);
    expect(rest.data.map((item) => item.content[0]!.text)).toEqual(['Two']);
    expect((await call('GET', `/v1/responses/${created.id}/input_items?limit=0`)).status).toBe(400);
    expect((await call('GET', `/v1/responses/${created.id}/input_items?after=msg_nope`)).status).toBe(400);
  });
});

/** The stored row of the master key's response `id`. */
async function keptRow(id: string) {
  const caller = await t.runtime.authenticator.authenticate(master);
  return t.runtime.db.responses.get(caller.org.id, id);
}
