import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './server.js';
import { frames, post, readJson } from './test-client.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream({ tokens: 4 });
});
afterAll(() => mock.close());

const long = 'The repository map. '.repeat(400);

interface AnthropicUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

describe('prompt caching as the providers report it', () => {
  it('Anthropic: writes the prefix up to the last cache_control, then reads it; input_tokens is the rest', async () => {
    const body = (question: string) => ({
      model: 'claude-x',
      max_tokens: 64,
      system: [{ type: 'text', text: long, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: question }],
    });
    const first = (await readJson<{ usage: AnthropicUsage }>(await post(`${mock.url}/v1/messages`, body('First question?')))).usage;
    expect(first.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(first.cache_read_input_tokens).toBe(0);
    const second = (await readJson<{ usage: AnthropicUsage }>(await post(`${mock.url}/v1/messages`, body('Another question entirely?')))).usage;
    expect(second).toMatchObject({ cache_read_input_tokens: first.cache_creation_input_tokens, cache_creation_input_tokens: 0 });
    expect(second.input_tokens).toBeLessThan(50);
    // No breakpoint, no caching.
    const plain = (await readJson<{ usage: AnthropicUsage }>(await post(`${mock.url}/v1/messages`, { ...body('x'), system: long }))).usage;
    expect(plain).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  });

  it('OpenAI: a repeated prompt prefix of 1024+ tokens comes back as cached_tokens, in steps of 128', async () => {
    const messages = [{ role: 'system', content: long }, { role: 'user', content: 'Hi' }];
    const usage = async () => (await readJson<{ usage: { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } } }>(await post(`${mock.url}/v1/chat/completions`, { model: 'gpt-x', messages }))).usage;
    expect((await usage()).prompt_tokens_details.cached_tokens).toBe(0);
    const again = await usage();
    expect(again.prompt_tokens_details.cached_tokens).toBeGreaterThanOrEqual(1024);
    expect(again.prompt_tokens_details.cached_tokens % 128).toBe(0);
    expect(again.prompt_tokens_details.cached_tokens).toBeLessThanOrEqual(again.prompt_tokens);
  });
});

describe('parallel tool calls', () => {
  const tools = ['get_weather', 'get_time'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: { city: { type: 'string' } } } } }));

  it('interleaves the argument fragments of every call when configured', async () => {
    mock.configure({ parallelToolCalls: 'interleaved' });
    try {
      const res = await post(`${mock.url}/v1/chat/completions`, { model: 'gpt-x', messages: [{ role: 'user', content: 'Both?' }], tools, tool_choice: 'required', stream: true });
      const deltas = frames(await res.text())
        .filter((f) => f.data !== '[DONE]')
        .flatMap((f) => (JSON.parse(f.data) as { choices: { delta: { tool_calls?: { index: number; id?: string; function?: { arguments?: string } }[] } }[] }).choices[0]?.delta.tool_calls ?? []);
      const order = deltas.map((call) => call.index);
      expect(order.slice(0, 2)).toEqual([0, 1]);
      expect(order.slice(2, 6)).toEqual([0, 1, 0, 1]);
      for (const index of [0, 1]) {
        const args = deltas.filter((call) => call.index === index).map((call) => call.function?.arguments ?? '').join('');
        expect(JSON.parse(args)).toEqual({ city: 'mock' });
      }
      const json = await readJson<{ choices: { message: { tool_calls: { function: { name: string } }[] } }[] }>(
        await post(`${mock.url}/v1/chat/completions`, { model: 'gpt-x', messages: [{ role: 'user', content: 'Both?' }], tools, tool_choice: 'required' }),
      );
      expect(json.choices[0]!.message.tool_calls.map((call) => call.function.name)).toEqual(['get_weather', 'get_time']);
    } finally {
      mock.configure({ parallelToolCalls: 'off' });
    }
  });
});
