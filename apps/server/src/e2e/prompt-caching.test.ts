import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useMockedGateway } from './mocked-gateway.js';

type WithSvc = { svc_metadata?: { cost_usd: number; model: string } };

/** Long enough to be cached (the mock, like Anthropic and OpenAI, caches 1024+ token prefixes only). */
const repositoryMap = 'src/main.ts exports the gateway; src/routes holds one file per route. '.repeat(120);
const ephemeral = { type: 'ephemeral' } as const;
/** Proxy mode: nothing (memory, the answer cache) changes the prompt the upstream sees. */
const proxy = { headers: { 'x-intelligence-mode': 'proxy' } };

describe('prompt caching survives translation (mock upstream)', () => {
  const mocked = useMockedGateway();
  /** USD per million tokens of a catalog model: input, cache read, cache write, output. */
  const prices = (id: string) => {
    const model = mocked.gateway.runtime.catalog.get(id)!;
    return { input: model.inputPricePerMTok, read: model.cachedInputPricePerMTok!, write: model.cacheWritePricePerMTok ?? model.inputPricePerMTok, output: model.outputPricePerMTok };
  };


  const agentTurn = (question: string): Anthropic.MessageCreateParamsNonStreaming => ({
    model: 'anthropic/claude-sonnet-4-5',
    max_tokens: 256,
    system: [
      { type: 'text', text: 'You are a coding agent.' },
      { type: 'text', text: repositoryMap, cache_control: { type: 'ephemeral', ttl: '1h' } },
    ],
    tools: [{ name: 'read_file', input_schema: { type: 'object', properties: { path: { type: 'string' } } }, cache_control: ephemeral }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Open main.ts', cache_control: ephemeral }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'src/main.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export {}', cache_control: ephemeral }, { type: 'text', text: question }] },
    ],
  });

  it('Messages: cache_control reaches Anthropic where the client put it, with anthropic-beta; writes then reads are reported and billed at the cache prices', async () => {
    const beta = { headers: { ...proxy.headers, 'anthropic-beta': 'extended-cache-ttl-2025-04-11' } };
    const first = await mocked.anthropic.messages.create(agentTurn('What does it export?'), beta);
    const sent = mocked.upstream.stats().lastRequest!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['anthropic-beta']).toBe('extended-cache-ttl-2025-04-11');
    expect(sent.body).toMatchObject({
      system: [{ type: 'text', text: 'You are a coding agent.' }, { type: 'text', text: repositoryMap, cache_control: { type: 'ephemeral', ttl: '1h' } }],
      tools: [{ name: 'read_file', cache_control: ephemeral }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Open main.ts', cache_control: ephemeral }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1' }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', cache_control: ephemeral }, { type: 'text', text: 'What does it export?' }] },
      ],
    });
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(first.usage.cache_read_input_tokens ?? 0).toBe(0);

    const second = await mocked.anthropic.messages.create(agentTurn('And what imports it?'), beta);
    expect(second.usage).toMatchObject({ cache_read_input_tokens: first.usage.cache_creation_input_tokens, cache_creation_input_tokens: 0 });
    const price = prices('anthropic/claude-sonnet-4-5');
    for (const { usage, svc_metadata } of [first, second] as (Anthropic.Message & WithSvc)[]) {
      const expected = (usage.input_tokens * price.input + (usage.cache_read_input_tokens ?? 0) * price.read + (usage.cache_creation_input_tokens ?? 0) * price.write + usage.output_tokens * price.output) / 1e6;
      expect(svc_metadata!.cost_usd).toBeCloseTo(expected, 6);
    }
    // The read is billed at a tenth of the input price: the second turn costs far less.
    expect((second as WithSvc).svc_metadata!.cost_usd).toBeLessThan((first as WithSvc).svc_metadata!.cost_usd / 3);

    const streamed = await mocked.anthropic.messages.stream({ ...agentTurn('And its tests?') }, proxy).finalMessage();
    expect(streamed.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
  });

  it('chat completions: cache_control on content parts and tools reaches Anthropic; cached tokens come back in prompt_tokens_details', async () => {
    const ask = (question: string) =>
      mocked.openai.chat.completions.create(
        {
          model: 'anthropic/claude-sonnet-4-5',
          messages: [
            { role: 'system', content: [{ type: 'text', text: repositoryMap, cache_control: ephemeral } as OpenAI.Chat.ChatCompletionContentPartText] },
            { role: 'user', content: [{ type: 'text', text: question }] },
          ],
          tools: [{ type: 'function', function: { name: 'grep', parameters: { type: 'object' } }, cache_control: ephemeral } as OpenAI.Chat.ChatCompletionTool],
        },
        proxy,
      );
    const first = await ask('Where are the routes?');
    expect(mocked.upstream.stats().lastRequest!.body).toMatchObject({
      system: [{ type: 'text', text: repositoryMap, cache_control: ephemeral }],
      tools: [{ name: 'grep', cache_control: ephemeral }],
    });
    const written = (first.usage!.prompt_tokens_details as { cache_write_tokens?: number }).cache_write_tokens!;
    expect(written).toBeGreaterThan(1024);
    const second = await ask('Which file exports the gateway?');
    expect(second.usage!.prompt_tokens_details).toMatchObject({ cached_tokens: written });
    expect((second.usage!.prompt_tokens_details as { cache_write_tokens?: number }).cache_write_tokens ?? 0).toBe(0);
  });

  it('a provider that caches by itself (OpenAI): its cached tokens are reported on every API shape and billed at the cached price', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'system', content: repositoryMap },
      { role: 'user', content: 'Summarise the layout.' },
    ];
    await mocked.openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages }, proxy);
    const again = await mocked.openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages }, proxy);
    const cached = again.usage!.prompt_tokens_details!.cached_tokens!;
    expect(cached).toBeGreaterThanOrEqual(1024);
    const price = prices('openai/gpt-4o-mini');
    const expected = ((again.usage!.prompt_tokens - cached) * price.input + cached * price.read + again.usage!.completion_tokens * price.output) / 1e6;
    expect((again as WithSvc).svc_metadata!.cost_usd).toBeCloseTo(expected, 6);

    const response = await mocked.openai.responses.create({ model: 'openai/gpt-4o-mini', instructions: repositoryMap, input: 'Summarise the layout.' }, proxy);
    expect(response.usage!.input_tokens_details.cached_tokens).toBeGreaterThanOrEqual(1024);
    const message = await mocked.anthropic.messages.create({ model: 'openai/gpt-4o-mini', max_tokens: 64, system: repositoryMap, messages: [{ role: 'user', content: 'Summarise the layout.' }] }, proxy);
    expect(message.usage.cache_read_input_tokens).toBeGreaterThanOrEqual(1024);
  });
});
