import { setTimeout as sleep } from 'node:timers/promises';
import { type ChatResult, ProviderError, type StreamEvent } from '@svc/core';
import type { CallOptions, EmbeddingRequest, EmbeddingResult, Provider, ProviderChatRequest } from '../provider.js';
import { estimateEmbeddingTokens } from '../shared/embed-batches.js';
import { transportError } from '../shared/http.js';
import { type MockAnswer, directiveError, planAnswer } from './mock-answer.js';
import { readDirectives } from './mock-directives.js';
import { MOCK_EMBEDDING_DIMENSIONS, mockEmbedding } from './mock-embed.js';

/** Settings of the built-in mock provider (the no-key embedded default). */
export interface MockProviderSettings {
  /** Provider id. Default `mock`. */
  id?: string;
  /** Time to first token in ms (also added to non-stream answers). Default 0. */
  latencyMs?: number;
  /** Generation pace; 0 or undefined streams as fast as the consumer reads. */
  tokensPerSecond?: number;
}

/**
 * A provider that answers without any upstream: deterministic text seeded by the last user
 * message, `n` choices, tool calls with schema-shaped JSON arguments, JSON mode, max_tokens ->
 * `length`, usage (prompt ~ chars/4), token-by-token streaming paced by `tokensPerSecond`, and
 * abort. Test directives (`[mock:error=503]`, ...) are listed in `mock-directives.ts`.
 * `embed` answers deterministic, L2-normalised vectors (see `mockEmbedding`), 256 long unless
 * `dimensions` says otherwise; `[mock:error=<status>]` and `[mock:latency=<ms>]` in any input
 * work there too.
 */
export function createMockProvider(settings: MockProviderSettings = {}): Provider {
  const id = settings.id ?? 'mock';
  const intervalMs = settings.tokensPerSecond !== undefined && settings.tokensPerSecond > 0 ? 1000 / settings.tokensPerSecond : 0;
  const baseLatencyMs = settings.latencyMs ?? 0;

  return {
    id,
    async chat(request: ProviderChatRequest, options?: CallOptions): Promise<ChatResult> {
      const signal = options?.signal;
      throwIfAborted(id, signal);
      const answer = planAnswer(id, request);
      if (answer.directives.streamErrorAfter !== undefined) throw midStreamError(id);
      const steps = Math.max(0, ...answer.choices.map((choice) => choice.tokens.length));
      // The latency is the time to the first byte (the response headers of a real upstream).
      await wait(id, answer.directives.latencyMs ?? baseLatencyMs, signal);
      options?.onResponse?.();
      await wait(id, steps * intervalMs, signal);
      return {
        id: answer.id,
        model: request.model,
        created: Math.floor(Date.now() / 1000),
        choices: answer.choices.map((choice, index) => ({
          index,
          message:
            choice.toolCall !== undefined
              ? { role: 'assistant', content: null, toolCalls: [choice.toolCall] }
              : { role: 'assistant', content: choice.tokens.join('') },
          finishReason: choice.finishReason,
        })),
        usage: answer.usage,
      };
    },
    async stream(request: ProviderChatRequest, options?: CallOptions): Promise<AsyncIterable<StreamEvent>> {
      throwIfAborted(id, options?.signal);
      // Planned before resolving, so a directive error rejects like an upstream error status.
      const answer = planAnswer(id, request);
      return streamAnswer(id, request.model, answer, answer.directives.latencyMs ?? baseLatencyMs, intervalMs, options?.signal);
    },
    async embed(request: EmbeddingRequest, options?: CallOptions): Promise<EmbeddingResult> {
      throwIfAborted(id, options?.signal);
      const dimensions = request.dimensions ?? MOCK_EMBEDDING_DIMENSIONS;
      if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > maxMockDimensions) {
        throw new ProviderError({ provider: id, kind: 'invalid_request', message: `dimensions must be an integer from 1 to ${maxMockDimensions}.`, upstreamStatus: 400, param: 'dimensions' });
      }
      let latencyMs = baseLatencyMs;
      for (const text of request.input) {
        const directives = readDirectives(text);
        if (directives.errorStatus !== undefined) throw directiveError(id, directives.errorStatus);
        if (directives.latencyMs !== undefined) latencyMs = directives.latencyMs;
      }
      await wait(id, latencyMs, options?.signal);
      const tokens = estimateEmbeddingTokens(request.input);
      return { model: request.model, embeddings: request.input.map((text) => mockEmbedding(text, dimensions)), usage: { promptTokens: tokens, totalTokens: tokens } };
    },
  };
}

/** The largest `dimensions` the mock accepts (OpenAI's largest model has 3072). */
const maxMockDimensions = 4096;

async function* streamAnswer(
  provider: string,
  model: string,
  answer: MockAnswer,
  latencyMs: number,
  intervalMs: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent> {
  yield { type: 'meta', id: answer.id, model };
  await wait(provider, latencyMs, signal);
  const failAfter = answer.directives.streamErrorAfter;
  const steps = Math.max(0, ...answer.choices.map((choice) => choice.tokens.length));
  // Paced against a fixed schedule rather than per-token sleeps, so timer overshoot never accumulates.
  const start = performance.now();
  for (let step = 0; step < steps; step++) {
    if (failAfter !== undefined && step >= failAfter) throw midStreamError(provider);
    if (intervalMs > 0 && step > 0) await wait(provider, start + step * intervalMs - performance.now(), signal);
    else throwIfAborted(provider, signal);
    // All choices advance together, as an upstream generating n choices in parallel does.
    for (let choice = 0; choice < answer.choices.length; choice++) {
      const planned = answer.choices[choice]!;
      const token = planned.tokens[step];
      if (token === undefined) continue;
      if (planned.toolCall === undefined) {
        yield { type: 'text-delta', choice, text: token };
      } else if (step === 0) {
        yield { type: 'tool-call-delta', choice, index: 0, id: planned.toolCall.id, name: planned.toolCall.name, argumentsDelta: token };
      } else {
        yield { type: 'tool-call-delta', choice, index: 0, argumentsDelta: token };
      }
    }
  }
  if (failAfter !== undefined && steps <= failAfter) throw midStreamError(provider);
  for (let choice = 0; choice < answer.choices.length; choice++) {
    yield { type: 'finish', choice, finishReason: answer.choices[choice]!.finishReason };
  }
  yield { type: 'usage', usage: answer.usage };
}

async function wait(provider: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return throwIfAborted(provider, signal);
  try {
    await sleep(ms, undefined, signal === undefined ? undefined : { signal });
  } catch (error) {
    throw transportError(provider, error, signal);
  }
}

function throwIfAborted(provider: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw transportError(provider, signal.reason, signal);
}

function midStreamError(provider: string): ProviderError {
  return new ProviderError({ provider, kind: 'server', message: 'Mock upstream failed mid-stream as the request asked.', upstreamCode: 'mock_stream_error' });
}
