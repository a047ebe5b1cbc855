import type { ChatRequest } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { decodeChatRequest } from './decode-chat-request.js';

const user = { role: 'user', content: 'hi' };

describe('decodeChatRequest maps the wire request to the canonical request', () => {
  it('fills the defaults of a minimal request', () => {
    expect(decodeChatRequest({ model: 'auto', messages: [user] })).toEqual({
      model: 'auto',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
      n: 1,
      includeUsage: false,
    } satisfies ChatRequest);
  });

  it('maps sampling, output and streaming controls to camelCase', () => {
    const request = decodeChatRequest({
      model: 'openai/gpt-4o',
      messages: [user],
      stream: true,
      stream_options: { include_usage: true },
      n: 2,
      max_tokens: 100,
      temperature: 0.3,
      top_p: 0.9,
      frequency_penalty: 0.5,
      presence_penalty: -0.5,
      stop: 'END',
      seed: 42,
      logprobs: true,
      top_logprobs: 3,
      parallel_tool_calls: false,
      reasoning_effort: 'low',
      reasoning: { effort: 'high', max_tokens: 2048, summary: 'auto', exclude: false, enabled: true },
      user: 'u-1',
      service_tier: 'batch',
      metadata: { trace: 'abc' },
    });
    expect(request).toEqual({
      model: 'openai/gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      includeUsage: true,
      n: 2,
      maxTokens: 100,
      temperature: 0.3,
      topP: 0.9,
      frequencyPenalty: 0.5,
      presencePenalty: -0.5,
      stop: ['END'],
      seed: 42,
      logprobs: true,
      topLogprobs: 3,
      parallelToolCalls: false,
      reasoningEffort: 'low',
      reasoning: { effort: 'high', maxTokens: 2048, summary: 'auto', exclude: false, enabled: true },
      user: 'u-1',
      serviceTier: 'batch',
      metadata: { trace: 'abc' },
    } satisfies ChatRequest);
  });

  it.each([
    [{ max_tokens: 10 }, 10],
    [{ max_completion_tokens: 20 }, 20],
    [{ max_tokens: 10, max_completion_tokens: 20 }, 20],
  ])('takes max_completion_tokens over its alias max_tokens (%j)', (patch, maxTokens) => {
    expect(decodeChatRequest({ model: 'm', messages: [user], ...patch }).maxTokens).toBe(maxTokens);
  });

  it('keeps cache_control breakpoints on content parts and tools (as OpenRouter and LiteLLM take them)', () => {
    const ephemeral = { type: 'ephemeral' };
    const request = decodeChatRequest({
      model: 'anthropic/claude-sonnet-4-5',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Long instructions', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
        { role: 'user', content: [{ type: 'text', text: 'Question', cache_control: ephemeral }, { type: 'image_url', image_url: { url: 'https://x.test/a.png' }, cache_control: ephemeral }] },
      ],
      tools: [{ type: 'function', function: { name: 'search' }, cache_control: ephemeral }],
    });
    expect(request.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Long instructions', cacheControl: { type: 'ephemeral', ttl: '1h' } }] },
      { role: 'user', content: [{ type: 'text', text: 'Question', cacheControl: { type: 'ephemeral' } }, { type: 'image', url: 'https://x.test/a.png', cacheControl: { type: 'ephemeral' } }] },
    ]);
    expect(request.tools).toEqual([{ name: 'search', cacheControl: { type: 'ephemeral' } }]);
  });

  it('treats explicit nulls as absent', () => {
    const request = decodeChatRequest({ model: 'm', messages: [user], temperature: null, stop: null, n: null });
    expect(request).not.toHaveProperty('temperature');
    expect(request).not.toHaveProperty('stop');
    expect(request.n).toBe(1);
  });

  it('keeps stop arrays as they are', () => {
    expect(decodeChatRequest({ model: 'm', messages: [user], stop: ['a', 'b'] }).stop).toEqual(['a', 'b']);
  });

  it('maps content parts to canonical parts', () => {
    const request = decodeChatRequest({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'https://x/cat.png', detail: 'low' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
            { type: 'file', file: { file_id: 'file-1' } },
          ],
        },
      ],
    });
    expect(request.messages[0]!.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', url: 'https://x/cat.png', detail: 'low' },
      { type: 'image', url: 'data:image/png;base64,AAAA' },
      { type: 'audio', data: 'UklG', format: 'wav' },
      { type: 'file', data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' },
      { type: 'file', fileId: 'file-1' },
    ]);
  });

  it('maps a tool-calling conversation', () => {
    const request = decodeChatRequest({
      model: 'm',
      messages: [
        { role: 'developer', content: 'be terse', name: 'ops' },
        user,
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: '12C' }] },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'weather', description: 'Weather', parameters: { type: 'object' }, strict: true },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
    });
    expect(request.messages).toEqual([
      { role: 'developer', content: 'be terse', name: 'ops' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' }] },
      { role: 'tool', toolCallId: 'call_1', content: [{ type: 'text', text: '12C' }] },
      { role: 'assistant', content: [], refusal: 'No.' },
    ]);
    expect(request.tools).toEqual([
      { name: 'weather', description: 'Weather', parameters: { type: 'object' }, strict: true },
    ]);
    expect(request.toolChoice).toEqual({ name: 'weather' });
  });

  it('maps legacy function calling onto tool calls paired by function name', () => {
    const request = decodeChatRequest({
      model: 'm',
      messages: [
        user,
        { role: 'assistant', content: null, function_call: { name: 'lookup', arguments: '{}' } },
        { role: 'function', name: 'lookup', content: 'found' },
      ],
    });
    expect(request.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, toolCalls: [{ id: 'lookup', name: 'lookup', arguments: '{}' }] },
      { role: 'tool', name: 'lookup', toolCallId: 'lookup', content: 'found' },
    ]);
  });

  it.each([
    [{ type: 'text' }, { type: 'text' }],
    [{ type: 'json_object' }, { type: 'json_object' }],
    [
      { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true, description: 'd' } },
      { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true, description: 'd' },
    ],
  ])('flattens response_format %j', (wire, canonical) => {
    expect(decodeChatRequest({ model: 'm', messages: [user], response_format: wire }).responseFormat).toEqual(canonical);
  });

  it('keeps JSON schemas by reference instead of copying them', () => {
    const parameters = { type: 'object', properties: { a: { type: 'string' } } };
    const request = decodeChatRequest({
      model: 'm',
      messages: [user],
      tools: [{ type: 'function', function: { name: 'f', parameters } }],
    });
    expect(request.tools![0]!.parameters).toBe(parameters);
  });

  it('maps routing_hints, routing_override and the svc block', () => {
    const request = decodeChatRequest({
      model: 'svc/auto',
      messages: [user],
      routing_hints: {
        mode: 'quality',
        preference_dial: 0.8,
        prefer_latency: false,
        prefer_quality: true,
        max_cost_per_token: 0.00001,
        max_latency_ms: 1500,
        max_tier: 2,
        required_capabilities: ['vision'],
        task_complexity: 'complex',
        chain_routing: 'mixed',
        allow_free_fallback: true,
      },
      routing_override: { force_tier: 'Tier 1', force_lane: 'turbo', force_model: 'x/y', force_provider: 'x' },
      svc: {
        workflow_type: 'long_horizon_autonomous',
        chain_id: '6c1f1e1e-0000-4000-8000-000000000000',
        conversation_id: 'conv-1',
        planning_mode: 'planact',
        max_chain_steps: 12,
        chain_timeout_secs: 600,
        chain_routing: 'sticky',
        reliability_level: 'critical',
        enable_memory: false,
        enable_speculation: true,
        enable_hedging: true,
        enable_cache: false,
        cache_ttl_secs: 60,
        output_verification: 'schema',
        compress_context: true,
        redact_pii: true,
        voice_mode: 'true',
        enable_tool_reranking: true,
        intelligence_mode: 'proxy',
      },
    });
    expect(request.routingHints).toEqual({
      mode: 'quality',
      preferenceDial: 0.8,
      preferLatency: false,
      preferQuality: true,
      maxCostPerToken: 0.00001,
      maxLatencyMs: 1500,
      maxTier: 2,
      requiredCapabilities: ['vision'],
      taskComplexity: 'complex',
      chainRouting: 'mixed',
      allowFreeFallback: true,
    });
    expect(request.routingOverride).toEqual({
      forceTier: 'T1',
      forceLane: 'turbo',
      forceModel: 'x/y',
      forceProvider: 'x',
    });
    expect(request.svc).toEqual({
      workflowType: 'long_horizon_autonomous',
      chainId: '6c1f1e1e-0000-4000-8000-000000000000',
      conversationId: 'conv-1',
      planningMode: 'planact',
      maxChainSteps: 12,
      chainTimeoutSecs: 600,
      reliabilityLevel: 'critical',
      enableMemory: false,
      enableSpeculation: true,
      enableHedging: true,
      enableCache: false,
      outputVerification: 'schema',
      redactPii: true,
      voiceMode: 'true',
      intelligenceMode: 'proxy',
    });
  });

  it.each([
    [true, 'true'],
    ['true', 'true'],
    ['realtime', 'realtime'],
    [false, undefined],
  ])('decodes svc.voice_mode %j as %j', (voiceMode, expected) => {
    const request = decodeChatRequest({ model: 'm', messages: [user], svc: { voice_mode: voiceMode } });
    expect(request.svc?.voiceMode).toBe(expected);
  });
});
