import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './server.js';
import { type ErrorBody, post, readJson } from './test-client.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream({ tokens: 4 });
});
afterAll(() => mock.close());

const ask = (model: string) => ({ model, messages: [{ role: 'user', content: 'x' }] });
const listed = async (path = '/v1/models') => ((await (await fetch(`${mock.url}${path}`)).json()) as { data: { id: string }[] }).data.map((m) => m.id);

describe('the models behaviour', () => {
  it('lists a fixed set and answers any model by default', async () => {
    expect(await listed()).toEqual(['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small']);
    expect((await post(`${mock.url}/v1/chat/completions`, ask('anything-at-all'))).status).toBe(200);
  });

  it('serves only the configured models: listed by GET /models, others 404 model_not_found', async () => {
    mock.configure({ models: ['Qwen/Qwen3-32B', 'llama-local'] });
    mock.resetStats();
    expect(await listed('/models')).toEqual(['Qwen/Qwen3-32B', 'llama-local']);
    expect(mock.stats().byPath['/models']).toBe(1);
    expect((await post(`${mock.url}/v1/chat/completions`, ask('llama-local'))).status).toBe(200);
    const refused = await post(`${mock.url}/v1/chat/completions`, ask('gpt-9'));
    expect(refused.status).toBe(404);
    expect((await readJson<ErrorBody>(refused)).error).toMatchObject({ code: 'model_not_found', param: 'model', type: 'invalid_request_error' });
    mock.configure({ models: undefined });
  });
});
