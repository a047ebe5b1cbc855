import { parseEnv } from '../runtime/env.js';
import { type Started, start } from '../start.js';

/**
 * The master key of the test gateways. Suites that share one PostgreSQL (TEST_DATABASE_URL) use
 * this one: the newest master key on a database supersedes the others (issue #36 rotation).
 */
export const masterKey = 'sk-svc-test-master-key-0123456789';

/** Starts the whole gateway (both apps, ports picked by the OS) on in-memory stores; `options` reach the runtime (e.g. a short image URL lifetime). */
export async function startGateway(
  env: Record<string, string> = {},
  options: Parameters<typeof start>[2] = {},
): Promise<Started & { inferenceUrl: string; controlUrl: string }> {
  const started = await start(
    parseEnv({ PORT: '0', CONTROL_PORT: '0', SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: masterKey, LOG_LEVEL: 'silent', SVC_SHUTDOWN_GRACE_MS: '2000', ...env }),
    'all',
    options,
  );
  const port = (name: string) => started.servers.find((s) => s.name === name)!.port;
  return { ...started, inferenceUrl: `http://127.0.0.1:${port('inference')}`, controlUrl: `http://127.0.0.1:${port('control-plane')}` };
}

/** The OpenAI, Anthropic and Gemini adapters pointed at a mock upstream, with no answer cache (identical requests reach it). */
export function upstreamProviders(upstreamUrl: string): Record<string, string> {
  return {
    SVC_CACHE_TTL_SECS: '0',
    OPENAI_API_KEY: 'sk-upstream-openai',
    OPENAI_BASE_URL: `${upstreamUrl}/v1`,
    ANTHROPIC_API_KEY: 'sk-upstream-anthropic',
    ANTHROPIC_BASE_URL: upstreamUrl,
    GEMINI_API_KEY: 'upstream-gemini',
    GEMINI_BASE_URL: upstreamUrl,
  };
}

/** An admin API call with the master key on a gateway's control plane; throws unless it answers 2xx. */
/** An admin API call's status and JSON body, whatever the status (a test of refusals reads both). */
export async function adminRequest<T = AdminBody>(controlUrl: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${controlUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as T };
}

/** What an admin answer holds, error answers included: its fields, and `error` when refused. */
export type AdminBody = Record<string, unknown> & { error?: { code: string; param: string | null } };

/** An admin API call that must succeed: its JSON body (a non-2xx answer throws with the status and body). */
export async function adminCall<T>(controlUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const { status, body: answer } = await adminRequest<T>(controlUrl, method, path, body);
  if (status < 200 || status > 299) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(answer)}`);
  return answer;
}
