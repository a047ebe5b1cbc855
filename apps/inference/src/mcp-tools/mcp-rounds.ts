import type { ChatRequest } from '@svc/core';
import type { McpCaller } from '@svc/mcp';
import { type ChatJsonResponse, type Exchange, admitToolCall } from '@svc/pipeline';
import type { Context } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { type ExchangeOptions, exchangeOf } from '../request-context.js';

/** What a request's MCP tool loop needs from its route (Responses `mcp` tools, Messages `mcp_servers`). */
export interface McpRounds {
  /** The caller as its tool calls are counted (requests per minute) and traced. */
  caller: McpCaller;
  /**
   * One model round through the gateway, answered whole; rounds after the first are billed as
   * `<request id>:mcp<round>`. The exchange is decided once, on the first round (one client-gone
   * listener per request), and each round gets its own copy of it.
   */
  chat(request: ChatRequest, round: number): Promise<ChatJsonResponse>;
}

export function mcpRounds(c: Context<AppEnv>, deps: Pick<InferenceDeps, 'gateway' | 'limiter'>, options: ExchangeOptions): McpRounds {
  const caller = c.get('caller');
  const requestId = c.get('requestId');
  let exchange: Exchange | undefined;
  return {
    caller: { orgId: caller.org.id, keyId: caller.keyId, requestId, span: c.get('trace'), admitToolCall: () => admitToolCall(deps.limiter, caller) },
    async chat(request, round) {
      exchange ??= exchangeOf(c, options);
      const answered = await deps.gateway.chat(request, { ...exchange, requestId: round === 1 ? requestId : `${requestId}:mcp${round}` });
      if (answered.kind !== 'json') throw new Error('a tool round was answered as a stream');
      return answered;
    },
  };
}
