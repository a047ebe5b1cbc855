import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CredentialOpenError } from '@svc/byok';
import { describe, expect, it } from 'vitest';
import { McpResponseTooLargeError } from './guarded-fetch.js';
import { McpCallError, upstreamFailure } from './mcp-call-error.js';
import { McpUrlRefusedError } from './url-check.js';

const failureOf = (error: unknown) => {
  const mapped = upstreamFailure(error, 'tools');
  return { failure: mapped.failure, status: mapped.status, code: mapped.code, data: mapped.data };
};

describe('upstreamFailure', () => {
  it('finds the reason under fetch’s cause chain', () => {
    const refused = new TypeError('fetch failed', { cause: new McpUrlRefusedError('names 10.0.0.1') });
    expect(failureOf(refused)).toEqual({ failure: 'mcp_url_refused', status: 403, code: -32011, data: { type: 'upstream_error', code: 'mcp_url_refused' } });
    expect(failureOf(new TypeError('terminated', { cause: new McpResponseTooLargeError(10) })).failure).toBe('mcp_response_too_large');
    expect(failureOf(new CredentialOpenError('altered')).failure).toBe('credential_unavailable');
  });

  it('tells a timeout, an upstream JSON-RPC error and anything else apart', () => {
    expect(failureOf(new McpError(ErrorCode.RequestTimeout, 'Request timed out'))).toMatchObject({ failure: 'upstream_timeout', status: 504 });
    expect(failureOf(new DOMException('aborted', 'TimeoutError'))).toMatchObject({ failure: 'upstream_timeout' });
    expect(failureOf(new McpError(ErrorCode.MethodNotFound, 'no tools'))).toMatchObject({ failure: 'upstream_error', status: 502 });
    expect(failureOf(new SyntaxError('Unexpected token <'))).toMatchObject({ failure: 'upstream_unreachable', status: 502 });
  });

  it('keeps a gateway failure as it is', () => {
    const blocked = new McpCallError('tool_call_blocked', 'blocked');
    expect(upstreamFailure(blocked, 'tools')).toBe(blocked);
    expect(blocked).toMatchObject({ code: -32010, status: 422, data: { type: 'governance_error', code: 'tool_call_blocked' } });
    expect(new McpCallError('internal_error', 'x')).toMatchObject({ code: -32603, status: 500, data: { type: 'internal_error', code: 'internal_error' } });
  });
});
