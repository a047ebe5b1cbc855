import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isEnvVariable, isMallocVariable, readGcFlags, readMallocSettings } from '@svc/server';
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
  /** More variables, applied last (e.g. a gateway knob under test): the process is then a labelled variant. */
  extraEnv?: Record<string, string>;
  /** How the report names the process (default `svc`). */
  label?: string;
  /** An existing data directory to open (default: a new temp directory). */
  dataDir?: string;
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

/**
 * The bench's environment without anything the gateway reads (every variable of its env schema and
 * every provider's key and base URL, `isEnvVariable`) or that changes how Node runs it (glibc's
 * `MALLOC_*` included): a setting in the shell (`SVC_SENTENCE_ENCODER=hashed`, a real
 * `OPENAI_API_KEY`, `DATABASE_URL`...) cannot turn a row of the shipped defaults into a variant.
 */
export function withoutGatewaySettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (!isEnvVariable(name) && !isMallocVariable(name) && name !== 'SVC_CONFIG' && name !== 'NODE_OPTIONS') kept[name] = value;
  }
  return kept;
}

/**
 * Start `node apps/server/dist/main.js` with the operator contract of DESIGN §3 and nothing else
 * (what `pnpm start` runs, its malloc settings and GC flags included): a temp `SVC_DATA_DIR`, a bench master key and OpenAI pointed at the
 * mock (`SVC_MOCK_PROVIDER=0` keeps the built-in mock provider out); wait for `/ready`.
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
  const variant = options.providerEnv !== undefined || Object.keys(options.extraEnv ?? {}).length > 0;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const child = await children.spawn({
    name: 'svc',
    command: process.execPath,
    // What `pnpm start` passes node for the CPUs the gateway runs on (scripts/gc-flags.sh).
    args: [...readGcFlags(options.root, options.cpus), script],
    cwd: options.root,
    cpus: options.cpus,
    env: {
      ...withoutGatewaySettings(process.env),
      // What `pnpm start` runs with (scripts/start.sh exports them before Node starts).
      ...readMallocSettings(options.root),
      PORT: String(port),
      CONTROL_PORT: String(controlPort),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_MASTER_KEY: masterKey,
      ...providers,
      SVC_MOCK_PROVIDER: '0',
      ...options.extraEnv,
    },
    gateway: { label: options.label ?? 'svc', shippedDefaults: !variant, ...(options.dataDir ? { seeded: true } : {}) },
  });
  // A data directory of its own goes with the process; one given by the caller stays the caller's.
  if (options.dataDir === undefined) void child.exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
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
    metricsUrl: `${svc.base}/metrics`,
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
  const started = await startSvcProcess(
    children,
    otlpUrl ? { ...rest, label: 'svc-otel (OpenTelemetry on)', extraEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl, OTEL_SERVICE_NAME: 'svc-bench' } } : rest,
  );
  if (!started.ok) return started;
  const target = svcTarget(started.svc, SVC_MODEL);
  return { ok: true, target: otlpUrl ? { ...target, name: 'svc-otel' } : target };
}
