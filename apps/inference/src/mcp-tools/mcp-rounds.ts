import { type ChatRequest, nodeSignal } from '@svc/core';
import type { McpCaller } from '@svc/mcp';
import { type ChatJsonResponse, type ChatStreamResponse, type Exchange, admitToolCall, replayStream } from '@svc/pipeline';
import type { Context } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { type ExchangeOptions, exchangeOf } from '../request-context.js';
import type { StreamRound } from './mcp-streamed-round.js';

/** What a request's MCP tool loop needs from its route (Responses `mcp` tools, Messages `mcp_servers`). */
export interface McpRounds {
  /** The caller as its tool calls are counted (requests per minute) and traced. */
  caller: McpCaller;
  /**
   * One model round through the gateway, answered whole; rounds after the first are billed as
   * `<request id>:mcp<round>`. The exchange is decided once, with the rounds (one client-gone
   * listener per request, which the tool calls' `caller.signal` follows too), and each round gets
   * its own copy of it.
   */
  chat(request: ChatRequest, round: number): Promise<ChatJsonResponse>;
  /** The same round, streamed (an answer the gateway gave whole is replayed as its events). */
  stream: StreamRound;
}

export function mcpRounds(c: Context<AppEnv>, deps: Pick<InferenceDeps, 'gateway' | 'limiter'>, options: ExchangeOptions): McpRounds {
  const caller = c.get('caller');
  const requestId = c.get('requestId');
  const exchange = exchangeOf(c, options);
  const roundExchange = (round: number): Exchange => ({ ...exchange, requestId: round === 1 ? requestId : `${requestId}:mcp${round}` });
  return {
    caller: { orgId: caller.org.id, keyId: caller.keyId, requestId, span: c.get('trace'), admitToolCall: () => admitToolCall(deps.limiter, caller), signal: nodeSignal(exchange.signal) },
    async chat(request, round) {
      const answered = await deps.gateway.chat(request, roundExchange(round));
      if (answered.kind !== 'json') throw new Error('a tool round was answered as a stream');
      return answered;
    },
    async stream(request, round) {
      const answered = await deps.gateway.chat(request, roundExchange(round));
      return answered.kind === 'stream' ? answered : replayed(answered);
    },
  };
}

/** A whole answer as the stream it would have been (a round the gateway answered from the cache). */
function replayed(answered: ChatJsonResponse): ChatStreamResponse {
  return { kind: 'stream', events: toAsync(replayStream(answered.result, answered.result.usage)), headers: answered.headers, model: answered.result.model, metadata: () => answered.metadata };
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
