import type { ChatRequest } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { applyLegacyHeaders } from './legacy-headers.js';

const base = (patch: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }], stream: false, n: 1, includeUsage: false, ...patch });
const headers = (values: Record<string, string>) => (name: string) => values[name];
const applied = (values: Record<string, string>, patch: Partial<ChatRequest> = {}) => {
  const request = base(patch);
  applyLegacyHeaders(request, headers(values));
  return request;
};

describe('legacy x-svc-* headers', () => {
  it('maps every header into metadata under the spec key', () => {
    const request = applied({
      'x-svc-workflow': 'creative',
      'x-svc-voice': 'true',
      'x-svc-planning-mode': 'planact',
      'x-svc-preference': '0.3',
      'x-svc-chain-routing': 'mixed',
      'x-svc-lane': 'turbo',
      'x-svc-tier': 'tier-2',
      'x-svc-run-id': 'run-7',
      'x-svc-conversation-id': 'conv-1',
      'x-intelligence-mode': 'proxy',
    });
    expect(request.metadata).toEqual({
      'x-svc-workflow': 'creative',
      'x-svc-voice': 'true',
      'x-svc-planning-mode': 'planact',
      'x-svc-preference': '0.3',
      'x-svc-chain-routing': 'mixed',
      'x-svc-lane': 'turbo',
      'x-svc-tier': 'tier-2',
      run_id: 'run-7',
      conversation_id: 'conv-1',
      'x-intelligence-mode': 'proxy',
    });
    expect(request.svc).toEqual({ workflowType: 'creative', voiceMode: 'true', planningMode: 'planact', conversationId: 'conv-1' });
    expect(request.routingHints).toEqual({ preferenceDial: 0.3, chainRouting: 'mixed' });
    expect(request.routingOverride).toEqual({ forceLane: 'turbo', forceTier: 'T2' });
  });

  it('leaves the request untouched without headers', () => {
    const request = applied({});
    expect(request).toEqual(base());
  });

  it('lets the body win over a header, in fields and in metadata', () => {
    const request = applied(
      { 'x-svc-tier': 'T3', 'x-svc-lane': 'turbo', 'x-svc-workflow': 'creative', 'x-svc-run-id': 'from-header', 'x-svc-preference': '0.9' },
      { routingOverride: { forceTier: 'T1', forceLane: 'smart' }, svc: { workflowType: 'single_turn' }, metadata: { run_id: 'from-body' }, routingHints: { mode: 'fast' } },
    );
    expect(request.routingOverride).toEqual({ forceTier: 'T1', forceLane: 'smart' });
    expect(request.svc?.workflowType).toBe('single_turn');
    expect(request.metadata?.run_id).toBe('from-body');
    expect(request.routingHints).toEqual({ mode: 'fast' });
  });

  it('clamps a numeric preference and accepts a mode name', () => {
    expect(applied({ 'x-svc-preference': '7' }).routingHints?.preferenceDial).toBe(1);
    expect(applied({ 'x-svc-preference': '-1' }).routingHints?.preferenceDial).toBe(0);
    expect(applied({ 'x-svc-preference': 'Quality' }).routingHints?.mode).toBe('quality');
  });

  it.each([
    ['x-svc-workflow', 'batch'],
    ['x-svc-planning-mode', 'yolo'],
    ['x-svc-preference', 'cheap'],
    ['x-svc-chain-routing', 'always'],
    ['x-svc-lane', 'fast'],
    ['x-svc-tier', 'T4'],
  ])('rejects %s: %s with a 400 naming the header', (name, value) => {
    expect(() => applied({ [name]: value })).toThrow(expect.objectContaining({ status: 400, param: name, type: 'invalid_request_error' }));
  });
});
