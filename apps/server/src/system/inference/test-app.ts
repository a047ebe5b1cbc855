import type { Scope } from '@svc/core';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll } from 'vitest';
import { type InferenceAppOptions, createInferenceApp } from '@svc/inference';

export interface TestApp {
  runtime: Runtime;
  app: ReturnType<typeof createInferenceApp>;
  /** POSTs `body` as JSON to `path` with `key` (default: the master key) as the bearer. */
  post(path: string, body: unknown, key?: string): Promise<Response>;
  /** A key of a fresh organisation holding only `scopes`. */
  keyWith(scopes: Scope[]): Promise<string>;
}

/**
 * An in-memory runtime answering from the mock provider, started before and closed after the
 * file's tests; `env` adds variables (provider keys whose base URL nothing answers, to test what
 * is refused before any call), `options` as `createInferenceApp` takes them (extra routes of a test).
 */
export function useTestApp(master: string, env: Record<string, string> = {}, options: InferenceAppOptions = {}): TestApp {
  const state = {} as TestApp;
  beforeAll(async () => {
    state.runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: master, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', ...env }));
    state.app = createInferenceApp({ ...state.runtime, maxBodyBytes: 64 * 1024 }, options);
  });
  afterAll(async () => {
    await state.runtime?.close();
  });
  state.post = (path, body, key = master) =>
    Promise.resolve(state.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) }));
  state.keyWith = async (scopes) => {
    const org = await state.runtime.db.orgs.ensure(`test-${scopes.join('-')}-${Math.random()}`);
    return (await state.runtime.authenticator.issue({ orgId: org.id, scopes })).secret;
  };
  return state;
}
