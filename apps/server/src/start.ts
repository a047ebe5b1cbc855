import { createControlPlaneApp } from '@svc/control-plane';
import { createInferenceApp } from '@svc/inference';
import { type Env, type Runtime, type RuntimeOptions, createRuntime } from '@svc/runtime';
import { type Listening, listen, shutdown } from './serve.js';

export type Role = 'all' | 'inference' | 'control-plane';

export interface Started {
  runtime: Runtime;
  servers: Listening[];
  /** Graceful stop: servers drain, then the ledger is flushed and the stores closed. */
  stop(): Promise<void>;
}

/** Builds the runtime and starts the apps of `role` on the configured ports. */
export async function start(env: Env, role: Role, options: Pick<RuntimeOptions, 'fetch' | 'imageUrlTtlMs'> = {}): Promise<Started> {
  const runtime = await createRuntime(env, options);
  const servers: Listening[] = [];
  try {
    if (role !== 'control-plane') {
      const app = createInferenceApp({ ...runtime, maxBodyBytes: env.SVC_MAX_BODY_BYTES, ...(env.SVC_PUBLIC_URL ? { publicUrl: env.SVC_PUBLIC_URL } : {}) });
      servers.push(await listen('inference', app, env.PORT, env.HOST));
    }
    if (role !== 'inference') {
      const app = createControlPlaneApp({ ...runtime, maxBodyBytes: env.SVC_MAX_BODY_BYTES, publicUrl: env.SVC_CONTROL_PUBLIC_URL });
      servers.push(await listen('control-plane', app, env.CONTROL_PORT, env.HOST));
    }
  } catch (error) {
    await shutdown(servers, 0);
    await runtime.close();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    runtime,
    servers,
    stop() {
      stopping ??= shutdown(servers, env.SVC_SHUTDOWN_GRACE_MS).then(() => runtime.close());
      return stopping;
    },
  };
}
