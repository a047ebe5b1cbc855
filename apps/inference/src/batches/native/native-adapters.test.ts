import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import { type NativeBatchLine, type NativeBatches, type ProviderChatRequest, createAnthropicProvider, createOpenAIProvider, isBatchKeyGone, keyFingerprint } from '@svc/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream({ batchPolls: 2 });
});
afterAll(() => mock.close());

const request = (model: string, text: string): ProviderChatRequest => ({ model, messages: [{ role: 'user', content: text }], maxTokens: 32, stream: false, n: 1, includeUsage: false });

async function collect(lines: AsyncIterable<NativeBatchLine>): Promise<NativeBatchLine[]> {
  const out: NativeBatchLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

async function pollUntilEnded(batches: NativeBatches, ref: Parameters<NativeBatches['status']>[0]): Promise<number> {
  for (let polls = 1; polls <= 10; polls++) if ((await batches.status(ref)).state === 'ended') return polls;
  throw new Error('the batch never ended');
}

describe.each([
  { name: 'OpenAI', model: 'gpt-4o-mini', batches: () => createOpenAIProvider({ apiKeys: ['sk-a', 'sk-b'], baseUrl: `${mock.url}/v1` }).batches!, path: '/v1/batches' },
  { name: 'Anthropic', model: 'claude-x', batches: () => createAnthropicProvider({ apiKeys: ['sk-ant-a'], baseUrl: mock.url }).batches!, path: '/v1/messages/batches' },
])('$name native batches against the mock upstream', ({ model, batches: make, path }) => {
  it('submits the lines as one batch, polls it to its end and reads each answer as chat() would', async () => {
    const batches = make();
    mock.resetStats();
    const lines = [
      { customId: 'line-0', request: request(model, 'first') },
      { customId: 'line-1', request: request(model, 'second') },
    ];
    const ref = await batches.submit(lines);
    expect(mock.stats().byPath[path]).toBe(1);
    expect(await pollUntilEnded(batches, ref)).toBe(2);
    const results = await collect(batches.results(ref));
    expect(results.map((line) => line.customId).sort()).toEqual(['line-0', 'line-1']);
    const answer = results[0]!.read(lines[0]!.request);
    expect(answer?.choices[0]?.message.content).toEqual(expect.any(String));
    expect(answer?.usage).toMatchObject({ promptTokens: expect.any(Number), completionTokens: expect.any(Number) });
  });

  it('a cancelled batch leaves the lines it did not run out (or answers them not run)', async () => {
    const batches = make();
    const lines = ['a', 'b', 'c', 'd'].map((text, index) => ({ customId: `line-${index}`, request: request(model, text) }));
    const ref = await batches.submit(lines);
    expect((await batches.status(ref)).state).toBe('in_progress');
    await batches.cancel(ref);
    await pollUntilEnded(batches, ref);
    const byId = new Map((await collect(batches.results(ref))).map((line) => [line.customId, line]));
    const ran = lines.filter((line) => byId.get(line.customId)?.read(line.request) !== undefined);
    expect(ran.map((line) => line.customId)).toEqual(['line-0', 'line-1']);
  });
});

describe('an errored line', () => {
  it('throws the ProviderError the interactive call would have (OpenAI status, Anthropic error type)', async () => {
    mock.configure({ batchPolls: 1, models: ['gpt-4o-mini', 'claude-x'] });
    try {
      const openai = createOpenAIProvider({ apiKeys: ['sk-a'], baseUrl: `${mock.url}/v1` }).batches!;
      const bad = request('gpt-unknown', 'hi');
      const ref = await openai.submit([{ customId: 'bad', request: bad }]);
      await pollUntilEnded(openai, ref);
      const [line] = await collect(openai.results(ref));
      expect(() => line!.read(bad)).toThrow(expect.objectContaining({ provider: 'openai', upstreamStatus: 404, upstreamCode: 'model_not_found' }));
      const anthropic = createAnthropicProvider({ apiKeys: ['sk-ant-a'], baseUrl: mock.url }).batches!;
      const badA = request('claude-unknown', 'hi');
      const refA = await anthropic.submit([{ customId: 'bad', request: badA }]);
      await pollUntilEnded(anthropic, refA);
      const [lineA] = await collect(anthropic.results(refA));
      expect(() => lineA!.read(badA)).toThrow(expect.objectContaining({ provider: 'anthropic', upstreamStatus: 404 }));
    } finally {
      mock.configure({ batchPolls: 2, models: undefined });
    }
  });
});

describe.each([
  { name: 'OpenAI', make: (keys: string[]) => createOpenAIProvider({ apiKeys: keys, baseUrl: `${mock.url}/v1` }).batches!, model: 'gpt-4o-mini' },
  { name: 'Anthropic', make: (keys: string[]) => createAnthropicProvider({ apiKeys: keys, baseUrl: mock.url }).batches!, model: 'claude-x' },
])('$name: the submitting key is remembered by its fingerprint', ({ make, model }) => {
  it('is found wherever it moved in the pool; a key no longer there rejects with batch_key_gone; a ref without one reads its position', async () => {
    const ref = await make(['sk-first', 'sk-second']).submit([{ customId: 'line-0', request: request(model, 'hi') }]);
    expect(ref.key).toBe(keyFingerprint('sk-first'));
    expect(ref.key).not.toContain('sk-first');
    // Reordered (and grown): the batch is still polled with its own key (the mock, as upstream, answers another key 404).
    expect((await make(['sk-new', 'sk-second', 'sk-first']).status(ref)).state).toEqual(expect.any(String));
    const removed = make(['sk-second']);
    const gone = await removed.status(ref).catch((error: unknown) => error);
    expect(isBatchKeyGone(gone)).toBe(true);
    expect(gone).toMatchObject({ kind: 'authentication', message: expect.stringContaining(ref.key!) });
    // A ref stored by an earlier release (position only) keeps working while the pool is unchanged.
    expect((await make(['sk-first', 'sk-second']).status({ id: ref.id, keyIndex: 0 })).state).toEqual(expect.any(String));
    expect(await make(['sk-second', 'sk-first']).status({ id: ref.id, keyIndex: 0 }).catch((error: unknown) => error)).toMatchObject({ upstreamStatus: 404 });
  });
});

const search = (marker: string, since: number, requests = 1, skip: (id: string) => boolean = () => false) => ({ marker, since, requests, skip: async (id: string) => skip(id) });

describe('OpenAI: a submission whose answer was lost', () => {
  it('is found by its marker (the batch metadata) with the key that created it, from `since` on; another marker finds none', async () => {
    const since = Math.floor(Date.now() / 1000);
    const openai = createOpenAIProvider({ apiKeys: ['sk-m1', 'sk-m2'], baseUrl: `${mock.url}/v1` }).batches!;
    await openai.submit([{ customId: 'line-0', request: request('gpt-4o-mini', 'a') }], undefined, 'nb_other');
    const ref = await openai.submit([{ customId: 'line-0', request: request('gpt-4o-mini', 'b') }], undefined, 'nb_wanted');
    expect(ref.keyIndex).toBe(1);
    // A pool in another order finds it with its own key.
    const found = await createOpenAIProvider({ apiKeys: ['sk-m2', 'sk-m1'], baseUrl: `${mock.url}/v1` }).batches!.find!(search('nb_wanted', since));
    expect(found).toEqual({ id: ref.id, keyIndex: 0, key: keyFingerprint('sk-m2'), confirmed: true });
    expect(await openai.find!(search('nb_missing', since))).toBeUndefined();
    expect(await openai.find!(search('nb_wanted', since))).toEqual({ id: ref.id, keyIndex: 1, key: keyFingerprint('sk-m2'), confirmed: true });
  });
});

describe('Anthropic: a submission whose answer was lost', () => {
  it('finds an unconfirmed candidate: a Message Batch of the pool\'s keys with as many requests, created since `since` (less 5 minutes), that `skip` leaves', async () => {
    const since = Math.floor(Date.now() / 1000);
    const anthropic = createAnthropicProvider({ apiKeys: ['sk-ant-f1', 'sk-ant-f2'], baseUrl: mock.url }).batches!;
    const lines = (count: number) => Array.from({ length: count }, (_, index) => ({ customId: `line-${index}-nb_x`, request: request('claude-x', `q${index}`) }));
    const three = await anthropic.submit(lines(3));
    const two = await anthropic.submit(lines(2));
    const newer = await anthropic.submit(lines(3));
    expect([three.keyIndex, two.keyIndex, newer.keyIndex]).toEqual([0, 1, 0]);
    // Newest first: the newer three-request batch, unless skipped.
    expect(await anthropic.find!(search('nb_x', since, 3))).toEqual({ id: newer.id, keyIndex: 0, key: keyFingerprint('sk-ant-f1'), confirmed: false });
    expect(await anthropic.find!(search('nb_x', since, 3, (id) => id === newer.id))).toMatchObject({ id: three.id, confirmed: false });
    expect(await anthropic.find!(search('nb_x', since, 2))).toEqual({ id: two.id, keyIndex: 1, key: keyFingerprint('sk-ant-f2'), confirmed: false });
    expect(await anthropic.find!(search('nb_x', since, 4))).toBeUndefined();
    // Batches created before `since` less the clock slack are not read.
    expect(await anthropic.find!(search('nb_x', since + 3600, 3))).toBeUndefined();
  });

  it('pages through the list (100 a page) back to `since`', async () => {
    const since = Math.floor(Date.now() / 1000);
    const anthropic = createAnthropicProvider({ apiKeys: ['sk-ant-pages'], baseUrl: mock.url }).batches!;
    const first = await anthropic.submit([{ customId: 'line-0-nb_p', request: request('claude-x', 'first') }, { customId: 'line-1-nb_p', request: request('claude-x', 'again') }]);
    for (let index = 0; index < 120; index++) await anthropic.submit([{ customId: 'line-0-nb_q', request: request('claude-x', 'other') }]);
    mock.resetStats();
    expect(await anthropic.find!(search('nb_p', since, 2))).toMatchObject({ id: first.id });
    expect(mock.stats().byPath['/v1/messages/batches']).toBe(2);
  });
});
