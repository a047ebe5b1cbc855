import type { ModelInfo } from '@svc/catalog';
import { ProviderError, type ProviderErrorKind } from '@svc/core';
import type { Provider } from '@svc/providers';
import { createMetrics } from '@svc/telemetry';
import { describe, expect, it } from 'vitest';
import { callCandidates } from '../units/unit-stage.js';
import { catalog, llama, request } from '../test/gateway-harness.js';
import { type BreakerGate, type CallSettings, callChat } from './call.js';

/** A breaker gate that admits every call and remembers what it was told. */
function recordingBreakers() {
  const told: string[] = [];
  const gate: BreakerGate = {
    allow: async () => ({ allowed: true, probe: false }),
    record: async (key, outcome) => void told.push(`${key} ${outcome}`),
    releaseProbe: async () => {},
  };
  return { gate, told };
}

const failure = (provider: string, kind: ProviderErrorKind, status: number) => new ProviderError({ provider, kind, message: `${provider} ${kind}`, upstreamStatus: status });

/** A provider whose chat and moderation both fail with `kind`. */
function failing(id: string, kind: ProviderErrorKind, status: number): Provider {
  return {
    id,
    chat: () => Promise.reject(failure(id, kind, status)),
    stream: () => Promise.reject(failure(id, kind, status)),
    moderate: () => Promise.reject(failure(id, kind, status)),
  };
}

/** What the shared breaker heard when the organisation's own key (BYOK) failed with `kind`, through chat and through a single-model stage. */
async function breakerHeard(kind: ProviderErrorKind, status: number): Promise<{ chat: string[]; unit: string[] }> {
  const provider = failing(llama.provider, kind, status);
  const providers = { get: (id: string) => (id === provider.id ? provider : undefined) };
  const chat = recordingBreakers();
  const settings: CallSettings = { providers, ownKey: () => true, observer: { attempt: () => {} }, maxAttempts: 1, signal: new AbortController().signal, breakers: chat.gate };
  await callChat(request({}), [llama], settings, []).catch(() => {});
  const unit = recordingBreakers();
  const model = llama as ModelInfo;
  const deps = { catalog, providers, learn: { recordUsage: () => {} }, metrics: createMetrics({ defaultMetrics: false }), breakers: unit.gate };
  await callCandidates(deps, { providers, ownKey: () => true }, [model], new AbortController().signal, (p) => (call) => p.moderate!({ model: 'x', input: 'x' }, { signal: call.signal })).catch(() => {});
  return { chat: chat.told, unit: unit.told };
}

// One walker (`walkWaterfall`) serves chat and the single-model endpoints: the rule for when an
// organisation's own key may open the shared breaker is decided once, and holds on both.
describe('the waterfall, chat and single-model alike', () => {
  it("never opens the shared breaker for a fault of the organisation's own key (rate limit, billing, authentication)", async () => {
    for (const [kind, status] of [['rate_limit', 429], ['billing', 402], ['authentication', 401]] as const) {
      expect(await breakerHeard(kind, status)).toEqual({ chat: [], unit: [] });
    }
  });

  it('counts the model failing (5xx, overloaded) against the shared breaker, whoever\'s key called it', async () => {
    const failed = `${llama.id} failure`;
    expect(await breakerHeard('overloaded', 503)).toEqual({ chat: [failed], unit: [failed] });
  });
});
