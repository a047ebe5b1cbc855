import { createControlPlaneApp } from '@svc/control-plane';
import { BatchWorker, type RealtimeGateway, createInferenceApp, createRealtimeGateway } from '@svc/inference';
import type { Env } from './runtime/env.js';
import { type Runtime, type RuntimeOptions, createRuntime } from './runtime/runtime.js';
import { embeddedDataDir, localUrl, writeControlNote } from './control-file.js';
import { metricsOnly } from './metrics-only.js';
import { type Listening, listen, shutdown } from './serve.js';

export type Role = 'all' | 'inference' | 'control-plane';

export interface Started {
  runtime: Runtime;
  servers: Listening[];
  /** Realtime voice sessions (`GET /v1/voice/realtime`) of the inference server, when it runs. */
  realtime: RealtimeGateway | undefined;
  /** Graceful stop: servers drain, then the ledger is flushed and the stores closed. */
  stop(): Promise<void>;
}

/**
 * On an embedded data directory, says beside its lock where this process's admin API listens,
 * so that `svc` commands forward to it rather than write the directory behind its back.
 * Resolves to the note's removal.
 */
async function noteControlPlane(env: Env, servers: readonly Listening[]): Promise<() => Promise<void>> {
  const dataDir = embeddedDataDir(env);
  if (!dataDir) return async () => {};
  const control = servers.find((server) => server.name === 'control-plane');
  return writeControlNote(dataDir, { control_url: control ? localUrl(env.HOST, control.port) : null, master_key: env.SVC_MASTER_KEY !== undefined });
}

export interface StartOptions extends Pick<RuntimeOptions, 'fetch' | 'imageUrlTtlMs'> {
  /** Runs once the runtime is built, before any port opens: what must not hold the loop while requests wait (the process's memory-reducing collection). */
  beforeListen?: () => Promise<void>;
}

/** Builds the runtime and starts the apps of `role` on the configured ports. */
export async function start(env: Env, role: Role, { beforeListen, ...options }: StartOptions = {}): Promise<Started> {
  const runtime = await createRuntime(env, options);
  const servers: Listening[] = [];
  let realtime: RealtimeGateway | undefined;
  let batchWorker: BatchWorker | undefined;
  let forget = async () => {};
  try {
    await beforeListen?.();
    if (role !== 'control-plane') {
      batchWorker = new BatchWorker(runtime, { concurrency: env.SVC_BATCH_CONCURRENCY, leaseMs: env.SVC_BATCH_LEASE_MS, native: env.SVC_BATCH_NATIVE !== false, nativePollMs: env.SVC_BATCH_NATIVE_POLL_MS });
      const app = createInferenceApp({ ...runtime, batchWorker, maxBodyBytes: env.SVC_MAX_BODY_BYTES, metricsToken: env.SVC_METRICS_TOKEN, trustedProxies: env.SVC_TRUSTED_PROXIES, ...(env.SVC_PUBLIC_URL ? { publicUrl: env.SVC_PUBLIC_URL } : {}) });
      const inference = await listen('inference', app, env.PORT, env.HOST, { requestTimeoutMs: env.SVC_BODY_TIMEOUT_MS });
      servers.push(inference);
      realtime = createRealtimeGateway({
        ...runtime,
        platformFeePerMinute: env.SVC_VOICE_PLATFORM_FEE_PER_MINUTE,
        sessionTimeoutMs: env.SVC_REQUEST_TIMEOUT_MS,
        handshakeTimeoutMs: env.SVC_CONNECT_TIMEOUT_MS,
        // Turn history of full-mode voice conversations, shared with /v1/voice/chat.
        voiceContext: runtime.voice.sessions,
      });
      inference.server.on('upgrade', realtime.handleUpgrade);
      batchWorker.start();
    }
    if (role !== 'inference') {
      const app = createControlPlaneApp({ ...runtime, maxBodyBytes: env.SVC_MAX_BODY_BYTES, metricsToken: env.SVC_METRICS_TOKEN, trustedProxies: env.SVC_TRUSTED_PROXIES, publicUrl: env.SVC_CONTROL_PUBLIC_URL });
      servers.push(await listen('control-plane', app, env.CONTROL_PORT, env.HOST, { requestTimeoutMs: env.SVC_BODY_TIMEOUT_MS }));
    }
    if (env.METRICS_PORT !== undefined) servers.push(await listen('metrics', metricsOnly(runtime.metrics), env.METRICS_PORT, env.HOST, { requestTimeoutMs: env.SVC_BODY_TIMEOUT_MS }));
    forget = await noteControlPlane(env, servers);
  } catch (error) {
    await batchWorker?.stop();
    await shutdown(servers, 0);
    await runtime.close();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    runtime,
    servers,
    realtime,
    stop() {
      // Realtime sessions get the same grace as requests, then end with 1001 (each billed) before the ledger is flushed.
      stopping ??= Promise.all([forget(), batchWorker?.stop(), shutdown(servers, env.SVC_SHUTDOWN_GRACE_MS), realtime?.shutdown(env.SVC_SHUTDOWN_GRACE_MS)]).then(() => runtime.close());
      return stopping;
    },
  };
}
