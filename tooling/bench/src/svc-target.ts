import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildSet } from './children.js';
import { COMPARISON_MODE, chatBody, type IntelligenceMode, type Target, type TargetStart } from './target.js';
import { freePort, readyOrStop } from './wait-ready.js';

/** Options of {@link startSvcProcess}. */
export interface SvcProcessOptions {
  root: string;
  mockUrl: string;
  cpus?: string;
  readyTimeoutMs?: number;
  /**
   * Provider variables to configure instead of `OPENAI_API_KEY=mock` + `OPENAI_BASE_URL`. When
   * given, every inherited `*_API_KEY` / `*_BASE_URL` and `SVC_CONFIG` is dropped first, so only
   * these providers exist (a real key in the shell cannot join a fallback waterfall).
   */
  providerEnv?: Record<string, string>;
  /** More variables, applied last (e.g. a gateway knob under test). */
  extraEnv?: Record<string, string>;
}

/** A started svc process: where to send requests and with which key. */
export interface SvcProcess {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The control plane, `http://127.0.0.1:<control port>` (cache stats). */
  control: string;
  masterKey: string;
  pid: number;
}

function inheritedEnv(stripProviders: boolean): NodeJS.ProcessEnv {
  const env = { ...process.env };
  if (!stripProviders) return env;
  for (const name of Object.keys(env)) {
    if (/_(API_KEY|BASE_URL)$/.test(name) || name === 'SVC_CONFIG') delete env[name];
  }
  return env;
}

/**
 * Start `node apps/server/dist/main.js` with the operator contract of DESIGN §3: a temp
 * `SVC_DATA_DIR`, a bench master key and providers pointed at the mock; wait for `/ready`.
 */
export async function startSvcProcess(
  children: ChildSet,
  options: SvcProcessOptions,
): Promise<{ ok: true; svc: SvcProcess } | { ok: false; reason: string }> {
  const script = join(options.root, 'apps/server/dist/main.js');
  if (!existsSync(script)) {
    return {
      ok: false,
      reason: `${script} does not exist (build it: npx turbo run build --filter=@svc/server...)`,
    };
  }
  const [port, controlPort] = [await freePort(), await freePort()];
  const masterKey = `sk-svc-bench-${randomBytes(16).toString('hex')}`;
  const providers = options.providerEnv ?? {
    OPENAI_API_KEY: 'mock',
    OPENAI_BASE_URL: `${options.mockUrl}/v1`,
  };
  const child = await children.spawn({
    name: 'svc',
    command: process.execPath,
    args: [script],
    cwd: options.root,
    cpus: options.cpus,
    env: {
      ...inheritedEnv(options.providerEnv !== undefined),
      PORT: String(port),
      CONTROL_PORT: String(controlPort),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-')),
      SVC_MASTER_KEY: masterKey,
      ...providers,
      LOG_LEVEL: 'warn',
      SVC_MOCK_PROVIDER: '0',
      ...options.extraEnv,
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const notReady = await readyOrStop(children, child, { url: `${base}/ready`, timeoutMs: options.readyTimeoutMs ?? 60_000 });
  if (notReady) return { ok: false, reason: notReady };
  return { ok: true, svc: { base, control: `http://127.0.0.1:${controlPort}`, masterKey, pid: child.pid } };
}

/** A chat completions target on a running svc that pins `model`; every request states `mode` in `x-intelligence-mode`. */
export function svcTarget(svc: SvcProcess, model: string, mode: IntelligenceMode = COMPARISON_MODE): Target {
  return {
    name: 'svc',
    url: `${svc.base}/v1/chat/completions`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${svc.masterKey}`, 'x-intelligence-mode': mode },
    body: (stream) => chatBody(model, stream),
    pid: svc.pid,
  };
}

/** The model svc requests pin in the main and cache runs (OpenAI on the mock). */
export const SVC_MODEL = 'openai/gpt-4o-mini';

/**
 * The svc target of the main runs: OpenAI pointed at the mock, `model: "openai/gpt-4o-mini"`, proxy
 * mode. With `otlpUrl` it is the `svc-otel` target: the same, tracing every request and exporting
 * the spans there (`OTEL_EXPORTER_OTLP_ENDPOINT`, the default batching).
 */
export async function startSvc(
  children: ChildSet,
  options: { root: string; mockUrl: string; cpus?: string; readyTimeoutMs?: number; otlpUrl?: string },
): Promise<TargetStart> {
  const { otlpUrl, ...rest } = options;
  const started = await startSvcProcess(children, otlpUrl ? { ...rest, extraEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl, OTEL_SERVICE_NAME: 'svc-bench' } } : rest);
  if (!started.ok) return started;
  const target = svcTarget(started.svc, SVC_MODEL);
  return { ok: true, target: otlpUrl ? { ...target, name: 'svc-otel' } : target };
}
