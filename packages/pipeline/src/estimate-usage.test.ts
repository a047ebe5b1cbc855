import { describe, expect, it } from 'vitest';
import { countPromptTokens, estimatePromptTokens, estimateUsage } from './estimate-usage.js';

describe('usage estimates for streams the provider left uncounted', () => {
  it('counts with the o200k tokenizer and marks the figure estimated', async () => {
    const usage = await estimateUsage([{ role: 'user', content: 'Hello world' }], 'Hello world');
    // "Hello world" is 2 tokens in o200k; each message adds 4 for its role and framing.
    expect(usage).toEqual({ promptTokens: 6, completionTokens: 2, totalTokens: 8, estimated: true });
  });

  it('counts text parts and ignores images', async () => {
    const usage = await estimateUsage([{ role: 'user', content: [{ type: 'text', text: 'Hello world' }, { type: 'image', url: 'https://x/y.png' }] }], '');
    expect(usage.promptTokens).toBe(6);
    expect(usage.completionTokens).toBe(0);
  });

  it('keeps a cheap synchronous heuristic for admission-time estimates', () => {
    expect(estimatePromptTokens([{ role: 'user', content: 'x'.repeat(400) }])).toBe(104);
  });
});

describe('countPromptTokens (POST /v1/messages/count_tokens)', () => {
  it('counts message text with the tokenizer, plus each message framing', async () => {
    expect(await countPromptTokens({ messages: [{ role: 'system', content: 'Hello world' }, { role: 'user', content: 'Hello world' }] })).toBe(12);
  });

  it('counts tool definitions, tool calls and images, so a tool-using prompt costs more than its text', async () => {
    const plain = await countPromptTokens({ messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    const withTool = await countPromptTokens({
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    const withCall = await countPromptTokens({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
      ],
    });
    const withImage = await countPromptTokens({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }, { type: 'image', url: 'https://x/y.png' }] }] });
    expect(withTool).toBeGreaterThan(plain + 15);
    expect(withCall).toBeGreaterThan(plain + 4);
    expect(withImage).toBe(plain + 1600);
  });
});
