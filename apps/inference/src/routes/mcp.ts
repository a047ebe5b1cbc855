import { RequestAbort, nodeSignal } from '@svc/core';
import { type RouteRegistry, onClientGone, readHeader } from '@svc/http-kit';
import { mcpProtocolVersion } from '@svc/mcp';
import { admitToolCall } from '@svc/pipeline';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import type { Context } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';

const tags = ['MCP'];
const description = `The organisation's registered MCP servers as one MCP server (streamable HTTP, protocol ${mcpProtocolVersion} and the SDK's earlier supported revisions, stateless: no \`Mcp-Session-Id\`). Tools are named \`<server>__<tool>\`; every \`tools/call\` goes through the organisation's tool policy and is a row of the usage ledger. The key needs \`inference:chat\`.`;

export const mcpPostRoute = defineRoute({
  method: 'post',
  path: '/mcp',
  operationId: 'mcpMessage',
  summary: 'MCP gateway: a JSON-RPC message',
  description,
  tags,
  auth: bearer('inference:chat'),
  responses: { 200: jsonResponse('The JSON-RPC response (`application/json`); 202 for a notification.') },
  errors: [400, 413],
});

export const mcpGetRoute = defineRoute({
  method: 'get',
  path: '/mcp',
  operationId: 'mcpStream',
  summary: 'MCP gateway: server-to-client stream (not offered)',
  description: 'The gateway is stateless and sends no server-initiated messages: 405, which MCP clients expect.',
  tags,
  auth: bearer('inference:chat'),
  responses: { 200: jsonResponse('Never: 405.') },
  errors: [405],
});

export const mcpDeleteRoute = defineRoute({
  method: 'delete',
  path: '/mcp',
  operationId: 'mcpEndSession',
  summary: 'MCP gateway: end a session (none are kept)',
  description: 'Stateless gateway: 405.',
  tags,
  auth: bearer('inference:chat'),
  responses: { 200: jsonResponse('Never: 405.') },
  errors: [405],
});

/** `/mcp`: the MCP gateway (@svc/mcp) for the authenticated key's organisation. */
export function registerMcp(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  const handle = (c: Context<AppEnv>) => {
    const caller = c.get('caller');
    // A tool call in flight upstream stops when the client leaves, not only at its timeout.
    const gone = new RequestAbort();
    onClientGone(c, () => gone.abort());
    return deps.mcpGateway.handle(c.req.raw, {
      orgId: caller.org.id,
      keyId: caller.keyId,
      requestId: c.get('requestId') ?? readHeader(c, 'x-request-id') ?? '',
      span: c.get('trace'),
      admitToolCall: () => admitToolCall(deps.limiter, caller),
      signal: nodeSignal(gone.signal),
    });
  };
  routes.add(mcpPostRoute, handle);
  routes.add(mcpGetRoute, handle);
  routes.add(mcpDeleteRoute, handle);
}
