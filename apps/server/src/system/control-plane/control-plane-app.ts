import { createControlPlaneApp } from '@svc/control-plane';
import { afterAll, beforeAll, expect } from 'vitest';
import { parseEnv } from '../../runtime/env.js';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';

/** A test file's control plane over a runtime of its own, and a JSON request to it. */
export interface ControlPlaneUnderTest {
  readonly runtime: Runtime;
  /** `method path` with a JSON `body`, authorised by `key` (the master key by default; null: none). */
  call(method: string, path: string, body?: unknown, key?: string | null): Response | Promise<Response>;
}

/**
 * Starts a runtime (embedded store in memory, hashed encoder, `env` on top) and its control
 * plane app before the file's tests, and closes it after them.
 */
export function useControlPlane(master: string, env: Record<string, string> = {}): ControlPlaneUnderTest {
  let runtime: Runtime | undefined;
  let control: ReturnType<typeof createControlPlaneApp> | undefined;
  beforeAll(async () => {
    runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: master, LOG_LEVEL: 'silent', ...env }));
    control = createControlPlaneApp({ ...runtime, maxBodyBytes: 64 * 1024 });
  });
  afterAll(async () => {
    await runtime?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the control plane is used before its beforeAll ran');
    return value;
  };
  return {
    get runtime() {
      return started(runtime);
    },
    call: (method, path, body, key = master) =>
      started(control).request(path, {
        method,
        headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
  };
}

/** The JSON body of `response`, once its status is `status` (the body is in the failure message). */
export async function jsonOf<T = Record<string, unknown>>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}
