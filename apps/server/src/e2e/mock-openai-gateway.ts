import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

export interface MockOpenAIGateway {
  upstream: MockUpstream;
  gateway: Gateway;
  /** The official SDK against the gateway with the master key, no retries. */
  client: OpenAI;
  /** The usage-ledger row of the answer with these headers (the ledger flushed first). */
  ledgerRow(headers: Headers): Promise<Awaited<ReturnType<Gateway['runtime']['db']['usage']['listByOrg']>>[number] | undefined>;
}

/**
 * For a describe block: the project's mock upstream behind a whole gateway (OpenAI key
 * `sk-upstream-openai`), started before its tests and stopped after. `options` reach the runtime.
 */
export function useMockOpenAIGateway(options: Parameters<typeof startGateway>[1] = {}): MockOpenAIGateway {
  const state = {} as MockOpenAIGateway;
  beforeAll(async () => {
    state.upstream = await startMockUpstream();
    state.gateway = await startGateway({ OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${state.upstream.url}/v1` }, options);
    state.client = new OpenAI({ baseURL: `${state.gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await state.gateway?.stop();
    await state.upstream?.close();
  });
  state.ledgerRow = async (headers) => {
    await state.gateway.runtime.learn.flush();
    const rows = await state.gateway.runtime.db.usage.listByOrg(headers.get('x-svc-org-id')!, { limit: 50 });
    return rows.find((row) => row.requestId === headers.get('x-svc-request-id'));
  };
  return state;
}
