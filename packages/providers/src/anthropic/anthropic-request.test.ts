import { describe, expect, it } from 'vitest';
import type { ProviderChatRequest } from '../provider.js';
import { buildAnthropicRequest } from './anthropic-request.js';

const base: ProviderChatRequest = { model: 'claude-x', messages: [{ role: 'user', content: 'Hi' }], stream: false, n: 3, includeUsage: false };
const tool = { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } };

describe('buildAnthropicRequest', () => {
  it('lets the model pick a caller tool or the JSON answer when both are offered', () => {
    const { body, jsonTool } = buildAnthropicRequest({ ...base, tools: [tool], responseFormat: { type: 'json_object' }, parallelToolCalls: false }, false);
    expect(jsonTool).toBe('json_response');
    expect(body.tools?.map((t) => t.name)).toEqual(['lookup', 'json_response']);
    expect(body.tools?.[1]?.input_schema).toEqual({ type: 'object', properties: {} });
    expect(body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
  });

  it('asks for the JSON tool in words when thinking forbids forcing it', () => {
    const { body } = buildAnthropicRequest({ ...base, responseFormat: { type: 'json_object' }, reasoning: { effort: 'high' } }, true);
    expect(body.tool_choice).toEqual({ type: 'auto' });
    expect(body.system).toEqual([{ type: 'text', text: 'Give your final answer by calling the json_response tool.' }]);
    expect(body).toMatchObject({ stream: true, max_tokens: 4096 + 16384, thinking: { type: 'enabled', budget_tokens: 16384 } });
  });

  it('maps tool choice and parallel calls, and never asks for n choices', () => {
    const disabled = buildAnthropicRequest({ ...base, tools: [tool], parallelToolCalls: false }, false).body;
    expect(disabled.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(disabled).not.toHaveProperty('n');
    expect(buildAnthropicRequest({ ...base, tools: [tool], toolChoice: 'none' }, false).body.tool_choice).toEqual({ type: 'none' });
    expect(buildAnthropicRequest({ ...base, tools: [tool], toolChoice: { name: 'lookup' } }, false).body.tool_choice).toEqual({ type: 'tool', name: 'lookup' });
    expect(buildAnthropicRequest({ ...base, toolChoice: 'required' }, false).body).not.toHaveProperty('tool_choice');
  });
});
