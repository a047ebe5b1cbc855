import Anthropic from '@anthropic-ai/sdk';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll } from 'vitest';
import { masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

/** The official SDKs' clients of `gateway`, authorised by `key` (the master key by default), never retrying. */
export function sdkClients(gateway: Gateway, key = masterKey): { openai: OpenAI; anthropic: Anthropic } {
  return {
    openai: new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: key, maxRetries: 0 }),
    anthropic: new Anthropic({ baseURL: gateway.inferenceUrl, apiKey: key, maxRetries: 0 }),
  };
}

/** A describe's gateway in front of the mock upstream, and the SDK clients of it (master key). */
export interface MockedGateway {
  readonly upstream: MockUpstream;
  readonly gateway: Gateway;
  readonly openai: OpenAI;
  readonly anthropic: Anthropic;
}

/**
 * Starts the mock upstream (6-token answers) and a gateway whose providers all point at it, with
 * `env` on top, before the enclosing describe's tests; stops both after them.
 */
export function useMockedGateway(env: Record<string, string> = {}): MockedGateway {
  let started: MockedGateway | undefined;
  let upstream: MockUpstream | undefined;
  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 6 });
    const gateway = await startGateway({ ...upstreamProviders(upstream.url), ...env });
    started = { upstream, gateway, ...sdkClients(gateway) };
  });
  afterAll(async () => {
    await started?.gateway.stop();
    await upstream?.close();
  });
  const get = (): MockedGateway => {
    if (!started) throw new Error('the mocked gateway is used before its beforeAll ran');
    return started;
  };
  return {
    get upstream() {
      return get().upstream;
    },
    get gateway() {
      return get().gateway;
    },
    get openai() {
      return get().openai;
    },
    get anthropic() {
      return get().anthropic;
    },
  };
}
