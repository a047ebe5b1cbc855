import { describe, expect, it } from 'vitest';
import { decodeResponsesRequest } from './decode-responses-request.js';

const decode = (body: Record<string, unknown>) => decodeResponsesRequest({ model: 'svc/auto', input: 'hi', ...body });

describe('decodeResponsesRequest', () => {
  it('maps a string input with instructions and the settings to the canonical request', () => {
    const { request, echo } = decode({
      instructions: 'Be brief.',
      max_output_tokens: 64,
      temperature: 0.2,
      top_p: 0.9,
      reasoning: { effort: 'low' },
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
      metadata: { run: '7' },
      store: true,
      user: 'u-1',
    });
    expect(request).toMatchObject({
      model: 'svc/auto',
      stream: false,
      n: 1,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      maxTokens: 64,
      temperature: 0.2,
      topP: 0.9,
      reasoning: { effort: 'low' },
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
      metadata: { run: '7' },
      user: 'u-1',
    });
    expect(echo).toEqual({ instructions: 'Be brief.', store: true, previous_response_id: null });
  });

  it('turns function_call items into assistant tool calls and outputs into tool turns', () => {
    const { request } = decode({
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }, { type: 'input_image', image_url: 'https://x/y.png', detail: 'low' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
        { type: 'function_call_output', call_id: 'call_2', output: 'rain' },
      ],
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' } }],
      tool_choice: { type: 'function', name: 'get_weather' },
    });
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image', url: 'https://x/y.png', detail: 'low' }] },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Checking.' }],
        toolCalls: [
          { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        ],
      },
      { role: 'tool', content: 'sunny', toolCallId: 'call_1' },
      { role: 'tool', content: 'rain', toolCallId: 'call_2' },
    ]);
    expect(request.tools).toEqual([{ name: 'get_weather', parameters: { type: 'object' } }]);
    expect(request.toolChoice).toEqual({ name: 'get_weather' });
  });

  it('drops replayed reasoning items', () => {
    const { request } = decode({ input: [{ type: 'reasoning', id: 'rs_1', summary: [] }, { role: 'user', content: 'go on' }] });
    expect(request.messages).toEqual([{ role: 'user', content: 'go on' }]);
  });

  it('reads a replayed mcp_call as the model\'s own call and the tool\'s answer; listings and unreadable calls are dropped', () => {
    const listing = { type: 'mcp_list_tools', id: 'mcpl_1', server_label: 'docs', tools: [] };
    const answered = { type: 'mcp_call', id: 'mcp_1', server_label: 'docs', name: 'search', arguments: '{"q":"x"}', output: 'found', error: null };
    const failed = { type: 'mcp_call', id: 'mcp_2', server_label: 'docs', name: 'fetch', arguments: '{}', output: null, error: 'timed out' };
    const { request } = decode({ input: [{ role: 'user', content: 'look it up' }, listing, answered, failed, { type: 'mcp_call', output: 'orphan' }, { role: 'user', content: 'and?' }] });
    expect(request.messages).toEqual([
      { role: 'user', content: 'look it up' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'mcp_1', name: 'docs__search', arguments: '{"q":"x"}' }] },
      { role: 'tool', content: 'found', toolCallId: 'mcp_1' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'mcp_2', name: 'docs__fetch', arguments: '{}' }] },
      { role: 'tool', content: 'Error: timed out', toolCallId: 'mcp_2' },
      { role: 'user', content: 'and?' },
    ]);
  });

  it('accepts a single input item and asks streams for usage', () => {
    const { request } = decode({ input: { role: 'user', content: 'one' }, stream: true });
    expect(request.messages).toEqual([{ role: 'user', content: 'one' }]);
    expect(request).toMatchObject({ stream: true, includeUsage: true });
  });

  it('carries the gateway extensions', () => {
    const { request } = decode({ routing_hints: { max_tier: 2, preference_dial: 7 }, routing_override: { force_tier: 'tier-1' }, svc: { enable_cache: false } });
    expect(request.routingHints).toEqual({ maxTier: 2, preferenceDial: 1 });
    expect(request.routingOverride).toEqual({ forceTier: 'T1' });
    expect(request.svc).toEqual({ enableCache: false });
  });

  it.each([
    [{ model: undefined }, 'model', 'Missing required parameter'],
    [{ input: undefined }, 'input', 'Missing required parameter'],
    [{ input: 7 }, 'input', 'must be a string'],
    [{ input: [] }, 'input', 'at least 1 element'],
    [{ input: [{ type: 'web_search_call', id: 'ws_1' }] }, 'input.0.type', "must be one of 'message'"],
    [{ input: [{ role: 'tool', content: 'x' }] }, 'input.0.role', 'must be one of'],
    [{ input: [{ role: 'user', content: [{ type: 'input_audio' }] }] }, 'input.0.content.0.type', "'input_text'"],
    [{ input: [{ role: 'user', content: [{ type: 'input_image', detail: 'low' }] }] }, 'input.0.content.0', 'must have image_url or file_id'],
    [{ input: [{ role: 'user', content: [{ type: 'input_file', filename: 'a.pdf' }] }] }, 'input.0.content.0', 'must have file_data or file_id'],
    [{ input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'input.0.call_id', 'Missing required parameter'],
    [{ input: [{ type: 'function_call_output', call_id: 'c' }] }, 'input.0.output', 'Missing required parameter'],
    [{ temperature: 2.5 }, 'temperature', 'between 0 and 2'],
    [{ top_p: -0.1 }, 'top_p', 'between 0 and 1'],
    [{ max_output_tokens: 0 }, 'max_output_tokens', 'integer >= 1'],
    [{ max_output_tokens: 1.5 }, 'max_output_tokens', 'integer >= 1'],
    [{ tools: [{ type: 'web_search' }] }, 'tools.0.type', 'hosted tools are not supported'],
    [{ tools: [{ type: 'function' }] }, 'tools.0.name', 'Missing required parameter'],
    [{ tool_choice: 'any' }, 'tool_choice', "'none', 'auto', 'required'"],
    [{ text: { format: { type: 'xml' } } }, 'text.format.type', "'text', 'json_object', 'json_schema'"],
    [{ text: { format: { type: 'json_schema', schema: {} } } }, 'text.format.name', 'Missing required parameter'],
    [{ reasoning: { effort: 'max' } }, 'reasoning.effort', "'low'"],
    [{ metadata: { k: 1 } }, 'metadata.k', 'at most 16'],
    [{ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata', 'at most 16'],
    [{ metadata: { k: 'v'.repeat(513) } }, 'metadata.k', 'values up to 512'],
    [{ store: 'yes' }, 'store', 'boolean'],
    [{ previous_response_id: '' }, 'previous_response_id', 'must be a non-empty string'],
    [{ routing_hints: { max_tier: 4 } }, 'routing_hints.max_tier', 'must be one of 1, 2, 3'],
    [{ svc: { max_chain_steps: 0 } }, 'svc.max_chain_steps', 'between 1 and 65535'],
  ])('rejects %j with a 400 naming %s', (patch, param, message) => {
    const body: Record<string, unknown> = { model: 'svc/auto', input: 'hi', ...patch };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    let thrown: unknown;
    try {
      decodeResponsesRequest(body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ status: 400, type: 'invalid_request_error', param });
    expect((thrown as Error).message).toContain(message);
  });

  it('rejects a body that is not an object', () => {
    expect(() => decodeResponsesRequest([])).toThrow(expect.objectContaining({ status: 400, param: null }));
  });
});
