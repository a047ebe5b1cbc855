import { GatewayError, invalidRequest, type SvcMetadata } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { ChatChunkEncoder, type ChatChunkEncoderOptions } from './chat-chunk-encoder.js';
import { checkOpenAIRules, chunksOf, parseFrames } from './sse-test-utils.js';

const options: ChatChunkEncoderOptions = { id: 'chatcmpl-1', created: 1700000000, model: 'gpt-4o', includeUsage: true, n: 1 };
const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15, cachedPromptTokens: 4, reasoningTokens: 2 };
const upstream = new GatewayError({ status: 502, type: 'upstream_error', code: 'provider_error', message: 'Upstream failed.' });
const svcMetadata = { request_id: 'req-1', provider: 'openai', tier: 'T2' } as SvcMetadata;

describe('ChatChunkEncoder', () => {
  it('streams text as role, content, finish (with svc_metadata), usage, [DONE]', () => {
    const encoder = new ChatChunkEncoder(options);
    const text =
      encoder.start() +
      encoder.event({ type: 'meta', id: 'upstream-1', model: 'gpt-4o-2024' }) +
      encoder.event({ type: 'text-delta', choice: 0, text: 'Hel' }) +
      encoder.event({ type: 'text-delta', choice: 0, text: 'lo "world"\n✓' }) +
      encoder.event({ type: 'finish', choice: 0, finishReason: 'length' }) +
      encoder.event({ type: 'usage', usage }) +
      encoder.end(svcMetadata);
    const frames = parseFrames(text);
    expect(frames.at(-1)).toEqual({ done: true });
    const chunks = chunksOf(frames);
    expect(chunks.map((c) => c.choices[0]?.delta ?? null)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Hel' },
      { content: 'lo "world"\n✓' },
      {},
      null,
    ]);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o' });
    }
    expect(checkOpenAIRules(chunks).get(0)).toEqual({ content: 'Hello "world"\n✓', finish: 'length' });
    expect(chunks[3]!.svc_metadata).toEqual(svcMetadata);
    expect(chunks[4]).toMatchObject({
      choices: [],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 4 },
        completion_tokens_details: { reasoning_tokens: 2 },
      },
    });
    expect(chunks[4]).not.toHaveProperty('svc_metadata');
  });

  it("carries the upstream's system_fingerprint on every chunk once the provider named it", () => {
    const encoder = new ChatChunkEncoder(options);
    const text =
      encoder.start() +
      encoder.event({ type: 'meta', id: 'upstream-1', model: 'gpt-4o', systemFingerprint: 'fp_abc' }) +
      encoder.event({ type: 'text-delta', choice: 0, text: 'Hi' }) +
      encoder.event({ type: 'usage', usage }) +
      encoder.end();
    const chunks = chunksOf(parseFrames(text)) as { system_fingerprint?: string }[];
    expect(chunks.map((chunk) => chunk.system_fingerprint)).toEqual([undefined, 'fp_abc', 'fp_abc', 'fp_abc']);
  });

  it('sends no usage chunk unless include_usage was asked for', () => {
    const encoder = new ChatChunkEncoder({ ...options, includeUsage: false });
    const text = encoder.start() + encoder.event({ type: 'usage', usage }) + encoder.end();
    const chunks = chunksOf(parseFrames(text));
    expect(chunks.some((chunk) => chunk.usage !== undefined)).toBe(false);
    expect(chunks.every((chunk) => chunk.choices.length === 1)).toBe(true);
  });

  it('streams tool calls with type on the first fragment and defaults the finish to tool_calls', () => {
    const encoder = new ChatChunkEncoder(options);
    const text =
      encoder.start() +
      encoder.event({ type: 'tool-call-delta', choice: 0, index: 0, id: 'call_a', name: 'weather', argumentsDelta: '' }) +
      encoder.event({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"city":' }) +
      encoder.event({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Oslo"}' }) +
      encoder.event({ type: 'tool-call-delta', choice: 0, index: 1, id: 'call_b', name: 'time', argumentsDelta: '{}' }) +
      encoder.end();
    const chunks = chunksOf(parseFrames(text));
    const calls = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(calls).toEqual([
      { index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":' } },
      { index: 0, function: { arguments: '"Oslo"}' } },
      { index: 1, id: 'call_b', type: 'function', function: { name: 'time', arguments: '{}' } },
    ]);
    expect(checkOpenAIRules(chunks).get(0)?.finish).toBe('tool_calls');
  });

  it('announces every choice of n and finishes the ones the provider left open with stop', () => {
    const encoder = new ChatChunkEncoder({ ...options, n: 2, includeUsage: false });
    const text =
      encoder.start() +
      encoder.event({ type: 'text-delta', choice: 1, text: 'b' }) +
      encoder.event({ type: 'text-delta', choice: 0, text: 'a' }) +
      encoder.event({ type: 'finish', choice: 1, finishReason: 'length' }) +
      encoder.end(svcMetadata);
    const chunks = chunksOf(parseFrames(text));
    const choices = checkOpenAIRules(chunks);
    expect(choices.get(0)).toEqual({ content: 'a', finish: 'stop' });
    expect(choices.get(1)).toEqual({ content: 'b', finish: 'length' });
    expect(chunks.filter((chunk) => chunk.svc_metadata !== undefined)).toHaveLength(1);
    expect(chunks.at(-1)?.svc_metadata).toEqual(svcMetadata);
  });

  it('sends the role first even when start() was skipped or a choice appears late', () => {
    const encoder = new ChatChunkEncoder(options);
    const text = encoder.event({ type: 'text-delta', choice: 2, text: 'x' }) + encoder.end();
    const choices = checkOpenAIRules(chunksOf(parseFrames(text)));
    expect([...choices.keys()].sort()).toEqual([0, 1, 2]);
  });

  it('keeps exactly one finish_reason when the provider repeats it', () => {
    const encoder = new ChatChunkEncoder(options);
    const text =
      encoder.start() +
      encoder.event({ type: 'finish', choice: 0, finishReason: 'stop' }) +
      encoder.event({ type: 'finish', choice: 0, finishReason: 'length' }) +
      encoder.end();
    expect(checkOpenAIRules(chunksOf(parseFrames(text))).get(0)?.finish).toBe('stop');
  });

  it('puts reasoning in delta.reasoning_content and refusals in delta.refusal, and skips empty deltas', () => {
    const encoder = new ChatChunkEncoder(options);
    encoder.start();
    expect(encoder.event({ type: 'text-delta', choice: 0, text: '' })).toBe('');
    const reasoning = chunksOf(parseFrames(encoder.event({ type: 'reasoning-delta', choice: 0, text: 'hmm' })));
    const refusal = chunksOf(parseFrames(encoder.event({ type: 'refusal-delta', choice: 0, text: 'no' })));
    expect(reasoning[0]!.choices[0]!.delta).toEqual({ reasoning_content: 'hmm' });
    expect(refusal[0]!.choices[0]!.delta).toEqual({ refusal: 'no' });
  });

  it('ends a failed stream with an error frame and no [DONE], then stays silent', () => {
    const encoder = new ChatChunkEncoder(options);
    const text = encoder.start() + encoder.error(upstream);
    const frames = parseFrames(text);
    expect(frames.some((frame) => 'done' in frame && frame.done)).toBe(false);
    expect(frames.at(-1)).toEqual({
      done: false,
      chunk: { error: { message: 'Upstream failed.', type: 'upstream_error', code: 'provider_error', param: null } },
    });
    expect(encoder.event({ type: 'text-delta', choice: 0, text: 'late' })).toBe('');
    expect(encoder.end()).toBe('');
    expect(encoder.error(invalidRequest('again'))).toBe('');
    expect(encoder.keepAlive()).toBe('');
  });

  it('keeps connections alive with an SSE comment, never a bare data line', () => {
    expect(new ChatChunkEncoder(options).keepAlive()).toBe(': keep-alive\n\n');
  });

  it('ends only once', () => {
    const encoder = new ChatChunkEncoder(options);
    encoder.end();
    expect(encoder.end()).toBe('');
    expect(encoder.start()).toBe('');
  });
});
