import Anthropic from '@anthropic-ai/sdk';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

const weatherSchema = { type: 'object' as const, properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city'] };
const timeSchema = { type: 'object' as const, properties: { zone: { type: 'string' } }, required: ['zone'] };
/** What the mock's calls carry: a value that satisfies each schema. */
const weatherInput = { city: 'mock', unit: 'celsius' };
const timeInput = { zone: 'mock' };

/**
 * Issue 32: an OpenAI-wire upstream that interleaves two parallel tool calls' argument fragments.
 * Every protocol must deliver both calls whole, streamed or not.
 */
describe('parallel tool calls whose fragments interleave upstream (mock upstream, OpenAI wire)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 6, parallelToolCalls: 'interleaved' });
    gateway = await startGateway(upstreamProviders(upstream.url));
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('Messages stream: both tool_use blocks arrive complete, in Anthropic event order', async () => {
    const client = new Anthropic({ baseURL: gateway.inferenceUrl, apiKey: masterKey, maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'openai/gpt-4o-mini',
      max_tokens: 256,
      tools: [
        { name: 'get_weather', input_schema: weatherSchema },
        { name: 'get_time', input_schema: timeSchema },
      ],
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'Weather and time in Paris?' }],
    });
    const order: string[] = [];
    stream.on('streamEvent', (event) => order.push('index' in event ? `${event.type}:${event.index}` : event.type));
    const message = await stream.finalMessage();
    // What the upstream was asked and what it streamed: both calls, interleaved.
    expect(upstream.stats().lastRequest!.body).toMatchObject({ tool_choice: 'required', stream: true, tools: [{ function: { name: 'get_weather' } }, { function: { name: 'get_time' } }] });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'tool_use', id: expect.stringMatching(/^call_mock/), name: 'get_weather', input: weatherInput },
      { type: 'tool_use', id: expect.stringMatching(/^call_mock\w+_1$/), name: 'get_time', input: timeInput },
    ]);
    // One block open at a time: block 0 streams, block 1 follows once it closed.
    const blocks = order.filter((entry) => entry.startsWith('content_block_start') || entry.startsWith('content_block_stop'));
    expect(blocks).toEqual(['content_block_start:0', 'content_block_stop:0', 'content_block_start:1', 'content_block_stop:1']);
    expect(order.filter((entry) => entry === 'content_block_delta:0').length).toBeGreaterThan(1);
  });

  it('chat completions and Responses streams, and every JSON answer, carry both calls whole', async () => {
    const openai = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
    const tools: OpenAI.Chat.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', parameters: weatherSchema } },
      { type: 'function', function: { name: 'get_time', parameters: timeSchema } },
    ];
    const params = { model: 'openai/gpt-4o-mini', tools, tool_choice: 'required' as const, messages: [{ role: 'user' as const, content: 'Weather and time?' }] };
    const streamed = await openai.chat.completions.stream(params).finalChatCompletion();
    const whole = await openai.chat.completions.create(params);
    for (const completion of [streamed, whole]) {
      expect(completion.choices[0]!.message.tool_calls!.map((call) => (call.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : []))).toEqual([
        ['get_weather', weatherInput],
        ['get_time', timeInput],
      ]);
    }
    const responseTools: OpenAI.Responses.Tool[] = tools.map((tool) => ({ type: 'function', name: tool.type === 'function' ? tool.function.name : '', parameters: weatherSchema, strict: false }));
    const response = await openai.responses.stream({ model: 'openai/gpt-4o-mini', input: 'Weather and time?', tools: responseTools, tool_choice: 'required' }).finalResponse();
    expect(response.output.filter((item) => item.type === 'function_call').map((item) => (item.type === 'function_call' ? JSON.parse(item.arguments) : undefined))).toEqual([
      { city: 'mock', unit: 'celsius' },
      { city: 'mock', unit: 'celsius' },
    ]);
  });
});
