import { GatewayError } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { decodeChatRequest } from './decode-chat-request.js';

const base = { model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }] };

function rejection(body: unknown): GatewayError {
  try {
    decodeChatRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected the request to be rejected');
}

/** [case, body patch, expected param] */
const rejected: [string, Record<string, unknown>, string][] = [
  ['n 0', { n: 0 }, 'n'],
  ['n 9', { n: 9 }, 'n'],
  ['n 1.5', { n: 1.5 }, 'n'],
  ['n as string', { n: '2' }, 'n'],
  ['temperature -0.1', { temperature: -0.1 }, 'temperature'],
  ['temperature 2.1', { temperature: 2.1 }, 'temperature'],
  ['top_p 1.1', { top_p: 1.1 }, 'top_p'],
  ['top_p -0.1', { top_p: -0.1 }, 'top_p'],
  ['frequency_penalty -2.1', { frequency_penalty: -2.1 }, 'frequency_penalty'],
  ['frequency_penalty 2.1', { frequency_penalty: 2.1 }, 'frequency_penalty'],
  ['presence_penalty -2.1', { presence_penalty: -2.1 }, 'presence_penalty'],
  ['presence_penalty 2.1', { presence_penalty: 2.1 }, 'presence_penalty'],
  ['top_logprobs 21', { top_logprobs: 21 }, 'top_logprobs'],
  ['top_logprobs -1', { top_logprobs: -1 }, 'top_logprobs'],
  ['max_tokens 0', { max_tokens: 0 }, 'max_tokens'],
  ['max_completion_tokens 0', { max_completion_tokens: 0 }, 'max_completion_tokens'],
  ['max_tokens 1.5', { max_tokens: 1.5 }, 'max_tokens'],
  ['seed -1', { seed: -1 }, 'seed'],
  ['seed 2^64', { seed: 2 ** 64 }, 'seed'],
  ['seed 1.5', { seed: 1.5 }, 'seed'],
  ['stream as string', { stream: 'true' }, 'stream'],
  ['logprobs as number', { logprobs: 1 }, 'logprobs'],
  ['stop as number', { stop: 1 }, 'stop'],
  ['stop with a number', { stop: ['a', 2] }, 'stop.1'],
  ['messages []', { messages: [] }, 'messages'],
  ['messages not an array', { messages: 'hi' }, 'messages'],
  ['message not an object', { messages: ['hi'] }, 'messages.0'],
  ['missing role', { messages: [{ content: 'hi' }] }, 'messages.0.role'],
  ['bad role', { messages: [{ role: 'robot', content: 'hi' }] }, 'messages.0.role'],
  ['role as number', { messages: [{ role: 1, content: 'hi' }] }, 'messages.0.role'],
  ['missing content', { messages: [{ role: 'user' }] }, 'messages.0.content'],
  ['null user content', { messages: [{ role: 'user', content: null }] }, 'messages.0.content'],
  ['bare assistant', { messages: [{ role: 'assistant', content: null }] }, 'messages.0.content'],
  ['bad part type', { messages: [{ role: 'user', content: [{ type: 'video' }] }] }, 'messages.0.content.0.type'],
  ['text part without text', { messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'messages.0.content.0.text'],
  [
    'image detail',
    { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'u', detail: 'max' } }] }] },
    'messages.0.content.0.image_url.detail',
  ],
  ['empty file', { messages: [{ role: 'user', content: [{ type: 'file', file: {} }] }] }, 'messages.0.content.0.file'],
  ['tool turn without id', { messages: [{ role: 'tool', content: 'x' }] }, 'messages.0.tool_call_id'],
  [
    'tool call without name',
    { messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { arguments: '{}' } }] }] },
    'messages.0.tool_calls.0.function.name',
  ],
  ['missing model', { model: undefined }, 'model'],
  ['empty model', { model: '' }, 'model'],
  ['model as number', { model: 4 }, 'model'],
  ['tool type', { tools: [{ type: 'retrieval', function: { name: 'f' } }] }, 'tools.0.type'],
  ['tool without name', { tools: [{ type: 'function', function: {} }] }, 'tools.0.function.name'],
  ['tool parameters array', { tools: [{ type: 'function', function: { name: 'f', parameters: [] } }] }, 'tools.0.function.parameters'],
  ['tool_choice string', { tool_choice: 'any' }, 'tool_choice'],
  ['tool_choice object', { tool_choice: { type: 'function', function: {} } }, 'tool_choice.function.name'],
  ['response_format type', { response_format: { type: 'xml' } }, 'response_format.type'],
  ['json_schema without name', { response_format: { type: 'json_schema', json_schema: { schema: {} } } }, 'response_format.json_schema.name'],
  ['json_schema missing', { response_format: { type: 'json_schema' } }, 'response_format.json_schema'],
  ['reasoning_effort', { reasoning_effort: 'extreme' }, 'reasoning_effort'],
  ['reasoning.effort', { reasoning: { effort: 'max' } }, 'reasoning.effort'],
  ['reasoning.max_tokens', { reasoning: { max_tokens: -1 } }, 'reasoning.max_tokens'],
  ['stream_options.include_usage', { stream_options: { include_usage: 'yes' } }, 'stream_options.include_usage'],
  ['metadata value', { metadata: { a: 1 } }, 'metadata.a'],
  ['user as number', { user: 1 }, 'user'],
  ['routing_hints.mode', { routing_hints: { mode: 'turbo' } }, 'routing_hints.mode'],
  ['preference_dial string', { routing_hints: { preference_dial: 'high' } }, 'routing_hints.preference_dial'],
  ['max_tier 4', { routing_hints: { max_tier: 4 } }, 'routing_hints.max_tier'],
  ['max_tier 0', { routing_hints: { max_tier: 0 } }, 'routing_hints.max_tier'],
  ['max_tier "1"', { routing_hints: { max_tier: '1' } }, 'routing_hints.max_tier'],
  ['max_cost_per_token 0', { routing_hints: { max_cost_per_token: 0 } }, 'routing_hints.max_cost_per_token'],
  ['max_latency_ms 0', { routing_hints: { max_latency_ms: 0 } }, 'routing_hints.max_latency_ms'],
  ['max_latency_ms 1.5', { routing_hints: { max_latency_ms: 1.5 } }, 'routing_hints.max_latency_ms'],
  ['task_complexity', { routing_hints: { task_complexity: 'hard' } }, 'routing_hints.task_complexity'],
  ['hints chain_routing', { routing_hints: { chain_routing: 'loose' } }, 'routing_hints.chain_routing'],
  ['required_capabilities', { routing_hints: { required_capabilities: 'vision' } }, 'routing_hints.required_capabilities'],
  ['prefer_latency', { routing_hints: { prefer_latency: 'yes' } }, 'routing_hints.prefer_latency'],
  ['routing_hints not an object', { routing_hints: 'fast' }, 'routing_hints'],
  ['force_tier T4', { routing_override: { force_tier: 'T4' } }, 'routing_override.force_tier'],
  ['force_tier tier-0', { routing_override: { force_tier: 'tier-0' } }, 'routing_override.force_tier'],
  ['force_tier number', { routing_override: { force_tier: 1 } }, 'routing_override.force_tier'],
  ['force_lane', { routing_override: { force_lane: 'slow' } }, 'routing_override.force_lane'],
  ['force_model empty', { routing_override: { force_model: '' } }, 'routing_override.force_model'],
  ['workflow_type', { svc: { workflow_type: 'batch' } }, 'svc.workflow_type'],
  ['planning_mode', { svc: { planning_mode: 'react' } }, 'svc.planning_mode'],
  ['max_chain_steps 0', { svc: { max_chain_steps: 0 } }, 'svc.max_chain_steps'],
  ['max_chain_steps 65536', { svc: { max_chain_steps: 65536 } }, 'svc.max_chain_steps'],
  ['chain_timeout_secs -1', { svc: { chain_timeout_secs: -1 } }, 'svc.chain_timeout_secs'],
  ['chain_timeout_secs 4294967296', { svc: { chain_timeout_secs: 4294967296 } }, 'svc.chain_timeout_secs'],
  ['svc chain_routing', { svc: { chain_routing: 'loose' } }, 'svc.chain_routing'],
  ['reliability_level', { svc: { reliability_level: 'extreme' } }, 'svc.reliability_level'],
  ['enable_cache', { svc: { enable_cache: 'no' } }, 'svc.enable_cache'],
  ['cache_ttl_secs 0', { svc: { cache_ttl_secs: 0 } }, 'svc.cache_ttl_secs'],
  ['cache_ttl_secs 86401', { svc: { cache_ttl_secs: 86401 } }, 'svc.cache_ttl_secs'],
  ['output_verification', { svc: { output_verification: 'human' } }, 'svc.output_verification'],
  ['voice_mode number', { svc: { voice_mode: 1 } }, 'svc.voice_mode'],
  ['intelligence_mode', { svc: { intelligence_mode: 'smart' } }, 'svc.intelligence_mode'],
  ['svc not an object', { svc: [] }, 'svc'],
];

describe('decodeChatRequest rejects every out-of-range value with a 400 naming the field', () => {
  it.each(rejected)('%s', (_case, patch, param) => {
    const error = rejection({ ...base, ...patch });
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
    expect(error.code).toBe('validation_error');
    expect(error.param).toBe(param);
    expect(error.message).toContain(`'${param}'`);
  });

  it.each([null, 'text', 42, [base]])('rejects a body that is not an object (%j) with param null', (body) => {
    const error = rejection(body);
    expect(error.status).toBe(400);
    expect(error.param).toBeNull();
  });

  it('says what is allowed and what was sent', () => {
    expect(rejection({ ...base, temperature: 2.1 }).message).toBe(
      "Invalid 'temperature': must be a number between 0 and 2 (got 2.1).",
    );
    expect(rejection({ ...base, n: 9 }).message).toBe("Invalid 'n': must be an integer between 1 and 8 (got 9).");
    expect(rejection({ messages: base.messages }).message).toBe("Missing required parameter: 'model'.");
    expect(rejection({ ...base, messages: [{ role: 'robot', content: 'x' }] }).message).toBe(
      "Invalid 'messages.0.role': must be one of 'system', 'developer', 'user', 'assistant', 'tool', 'function' (got \"robot\").",
    );
  });

  it('reports the first offending field only', () => {
    expect(rejection({ ...base, n: 0, temperature: 9 }).param).toBe('n');
  });
});

/** [case, body patch] */
const accepted: [string, Record<string, unknown>][] = [
  ['n 1', { n: 1 }],
  ['n 8', { n: 8 }],
  ['temperature 0', { temperature: 0 }],
  ['temperature 2', { temperature: 2 }],
  ['top_p 0 and 1', { top_p: 1 }],
  ['penalties at the bounds', { frequency_penalty: -2, presence_penalty: 2 }],
  ['top_logprobs 0', { top_logprobs: 0 }],
  ['top_logprobs 20', { top_logprobs: 20 }],
  ['seed 0', { seed: 0 }],
  ['seed 2^63', { seed: 2 ** 63 }],
  ['max_tier 1..3', { routing_hints: { max_tier: 3 } }],
  ['max_chain_steps 1 and 65535', { svc: { max_chain_steps: 65535 } }],
  ['chain_timeout_secs 0', { svc: { chain_timeout_secs: 0 } }],
  ['chain_timeout_secs 4294967295', { svc: { chain_timeout_secs: 4294967295 } }],
  ['cache_ttl_secs 86400', { svc: { cache_ttl_secs: 86400 } }],
  ['every field null', { stream: null, n: null, temperature: null, stop: null, tools: null, svc: null }],
  ['unknown top-level fields', { prediction: { type: 'content' }, modalities: ['text'], store: true }],
];

describe('decodeChatRequest accepts the edge values', () => {
  it.each(accepted)('%s', (_case, patch) => {
    expect(() => decodeChatRequest({ ...base, ...patch })).not.toThrow();
  });

  it('keeps n 8, temperature 2 and top_logprobs 20 as sent', () => {
    const request = decodeChatRequest({ ...base, n: 8, temperature: 2, top_logprobs: 20 });
    expect(request).toMatchObject({ n: 8, temperature: 2, topLogprobs: 20 });
  });

  it.each([
    [1.7, 1],
    [-3, 0],
    [0.25, 0.25],
  ])('clamps preference_dial %d to %d', (dial, clamped) => {
    const request = decodeChatRequest({ ...base, routing_hints: { preference_dial: dial } });
    expect(request.routingHints?.preferenceDial).toBe(clamped);
  });

  it.each([
    ['T1', 'T1'],
    ['tier-1', 'T1'],
    ['tier1', 'T1'],
    ['Tier 2', 'T2'],
    ['t3', 'T3'],
    ['TIER_3', 'T3'],
  ])('normalises force_tier %s to %s', (tier, normalised) => {
    const request = decodeChatRequest({ ...base, routing_override: { force_tier: tier } });
    expect(request.routingOverride?.forceTier).toBe(normalised);
  });

  it('drops unknown top-level fields instead of carrying them along', () => {
    const request = decodeChatRequest({ ...base, prediction: { type: 'content' } });
    expect(request).not.toHaveProperty('prediction');
  });

  it('keeps store: false (the request must not be kept or re-sent) and drops store: true', () => {
    expect(decodeChatRequest({ ...base, store: false }).store).toBe(false);
    expect(decodeChatRequest({ ...base, store: true })).not.toHaveProperty('store');
  });
});
