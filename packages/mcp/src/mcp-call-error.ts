import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CredentialOpenError } from '@svc/byok';
import { McpResponseTooLargeError } from './guarded-fetch.js';
import { mcpGatewayErrorCodes } from './mcp-error-codes.js';
import { McpUrlRefusedError } from './url-check.js';

/**
 * Why a tool call failed at the gateway, as the MCP client sees it: a JSON-RPC error whose `code`
 * is below, whose `data` holds the stable `{type, code}` and whose message says what happened.
 * The HTTP-like `status` goes to the ledger and the span.
 */
export type McpCallFailure =
  | 'tool_not_found'
  | 'tool_not_allowed'
  | 'tool_call_blocked'
  | 'rate_limited'
  | 'upstream_timeout'
  | 'upstream_error'
  | 'upstream_unreachable'
  | 'mcp_url_refused'
  | 'mcp_response_too_large'
  | 'credential_unavailable'
  | 'client_closed_request'
  | 'internal_error';


const failures: Record<McpCallFailure, { rpc: number; status: number }> = {
  tool_not_found: { rpc: ErrorCode.InvalidParams, status: 404 },
  tool_not_allowed: { rpc: mcpGatewayErrorCodes.toolNotAllowed, status: 403 },
  tool_call_blocked: { rpc: mcpGatewayErrorCodes.toolCallBlocked, status: 422 },
  rate_limited: { rpc: mcpGatewayErrorCodes.rateLimited, status: 429 },
  upstream_timeout: { rpc: mcpGatewayErrorCodes.upstreamFailed, status: 504 },
  upstream_error: { rpc: mcpGatewayErrorCodes.upstreamFailed, status: 502 },
  upstream_unreachable: { rpc: mcpGatewayErrorCodes.upstreamFailed, status: 502 },
  mcp_url_refused: { rpc: mcpGatewayErrorCodes.upstreamFailed, status: 403 },
  mcp_response_too_large: { rpc: mcpGatewayErrorCodes.upstreamFailed, status: 502 },
  credential_unavailable: { rpc: mcpGatewayErrorCodes.upstreamFailed, status: 500 },
  // Nobody reads it (the client left); the ledger and the span keep 499, nginx's "client closed request".
  client_closed_request: { rpc: ErrorCode.ConnectionClosed, status: 499 },
  internal_error: { rpc: ErrorCode.InternalError, status: 500 },
};

const errorTypes: Partial<Record<McpCallFailure, string>> = {
  tool_not_found: 'not_found_error',
  tool_not_allowed: 'authorization_error',
  tool_call_blocked: 'governance_error',
  rate_limited: 'rate_limit_error',
  client_closed_request: 'invalid_request_error',
  internal_error: 'internal_error',
};

/** A tool call the gateway ended: an McpError the SDK answers as JSON-RPC, with its stable code. */
export class McpCallError extends McpError {
  readonly failure: McpCallFailure;
  readonly status: number;

  /** `detail` joins the error's `data` (e.g. `retry_after_seconds` of a rate-limited call). */
  constructor(failure: McpCallFailure, message: string, detail: Record<string, string | number> = {}) {
    super(failures[failure].rpc, message, { ...detail, type: errorTypes[failure] ?? 'upstream_error', code: failure });
    this.name = 'McpCallError';
    this.failure = failure;
    this.status = failures[failure].status;
  }
}

/** `error` and its causes, outermost first (fetch wraps socket errors in `cause`). */
function* causes(error: unknown): Generator<unknown> {
  let current = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth += 1) {
    yield current;
    current = current instanceof Error ? current.cause : undefined;
  }
}

const isTimeout = (error: unknown) =>
  (error instanceof McpError && error.code === ErrorCode.RequestTimeout) || (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'));

/** What a failure talking to server `server` means for the caller. */
export function upstreamFailure(error: unknown, server: string): McpCallError {
  for (const cause of causes(error)) {
    if (cause instanceof McpCallError) return cause;
    if (cause instanceof McpUrlRefusedError) return new McpCallError('mcp_url_refused', `MCP server '${server}' was not dialled: its URL ${cause.message}.`);
    if (cause instanceof McpResponseTooLargeError) return new McpCallError('mcp_response_too_large', `MCP server '${server}' answered too much: ${cause.message}.`);
    if (cause instanceof CredentialOpenError) return new McpCallError('credential_unavailable', `The credential of MCP server '${server}' cannot be opened; register it again.`);
    if (isTimeout(cause)) return new McpCallError('upstream_timeout', `MCP server '${server}' did not answer in time.`);
  }
  if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
    return new McpCallError('upstream_error', `MCP server '${server}' answered an error: ${error.message}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new McpCallError('upstream_unreachable', `MCP server '${server}' failed: ${message}`);
}
