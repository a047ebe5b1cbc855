import { describe, expect, it } from 'vitest';
import { authenticationError, invalidRequest, rateLimited, toGatewayError } from './errors.js';
import { ProviderError, kindFromStatus, parseRetryAfter } from './provider-error.js';

describe('GatewayError', () => {
  it('carries the spec shape for a validation failure', () => {
    const error = invalidRequest('temperature must be <= 2', 'temperature');
    expect(error.status).toBe(400);
    expect(error.toBody()).toEqual({
      message: 'temperature must be <= 2',
      type: 'invalid_request_error',
      code: 'validation_error',
      param: 'temperature',
    });
  });

  it('reports a missing key as invalid_api_key', () => {
    expect(authenticationError('missing_api_key').code).toBe('invalid_api_key');
    expect(authenticationError('revoked_api_key').status).toBe(401);
  });

  it('sets retry-after on rate limits, rounded up to whole seconds', () => {
    expect(rateLimited('slow down', 1.2).headers['retry-after']).toBe('2');
  });

  it('hides unknown errors behind a generic 500', () => {
    const error = toGatewayError(new Error('database password is hunter2'));
    expect(error.status).toBe(500);
    expect(error.message).not.toContain('hunter2');
  });

  it('maps an unreachable Redis (the kv circuit open) to 503 kv_unavailable with retry-after, like the database', () => {
    const kvDown = Object.assign(new Error('Redis is unavailable (circuit open)'), { code: 'kv_unavailable' });
    const error = toGatewayError(kvDown);
    expect([error.status, error.type, error.code, error.headers['retry-after']]).toEqual([503, 'internal_error', 'kv_unavailable', '1']);
    expect(toGatewayError(Object.assign(new Error('db'), { code: 'database_unavailable' })).code).toBe('database_unavailable');
  });
});

describe('ProviderError', () => {
  it('maps kinds to gateway statuses and retryability', () => {
    const timeout = new ProviderError({ provider: 'openai', kind: 'timeout', message: 't' });
    expect([timeout.status, timeout.code, timeout.retryable]).toEqual([504, 'provider_timeout', true]);
    const caller = new ProviderError({ provider: 'openai', kind: 'invalid_request', message: 'bad tool' });
    expect([caller.status, caller.retryable]).toEqual([400, false]);
    const server = new ProviderError({ provider: 'openai', kind: 'server', message: 'x' });
    expect([server.status, server.type]).toEqual([502, 'upstream_error']);
  });

  it('derives kinds from upstream statuses', () => {
    expect([400, 401, 402, 408, 429, 500, 503, 529].map(kindFromStatus)).toEqual([
      'invalid_request', 'authentication', 'billing', 'timeout', 'rate_limit', 'server', 'overloaded', 'overloaded',
    ]);
  });

  it('parses retry-after in ms, seconds and HTTP dates', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(parseRetryAfter(new Headers())).toBeUndefined();
  });
});
