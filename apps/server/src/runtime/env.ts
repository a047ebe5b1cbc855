import { encryptionKeyFormat, isEncryptionKey } from '@svc/byok';
import { type RelyingParty, masterKeyWeakness, relyingPartyFromOrigin } from '@svc/auth';
import { BlockList, isIP } from 'node:net';
import * as v from 'valibot';

/**
 * The operator contract's environment (DESIGN.md §3), validated once. Apps call `parseEnv`
 * with `process.env`; nothing else in the code base reads the environment.
 */

/** Providers configured by `<PROVIDER>_API_KEY` / `<PROVIDER>_BASE_URL`. */
export const envProviders = [
  'openai',
  'anthropic',
  'gemini',
  'azure',
  'cohere',
  'groq',
  'together',
  'fireworks',
  'deepseek',
  'xai',
  'mistral',
  'cerebras',
  'perplexity',
  'openrouter',
  'ollama',
  'deepgram',
  'elevenlabs',
] as const;
export type EnvProvider = (typeof envProviders)[number];

const port = (name: string, fallback: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.transform(Number),
    v.number(),
    v.integer(`${name} must be a whole number`),
    v.minValue(0, `${name} must be 0..65535`),
    v.maxValue(65535, `${name} must be 0..65535`),
  );

const positiveInt = (name: string, fallback: number) =>
  v.pipe(v.optional(v.string(), String(fallback)), v.transform(Number), v.number(`${name} must be a number`), v.integer(`${name} must be a whole number`), v.minValue(0, `${name} must be >= 0`));

const nonNegativeNumber = (name: string, fallback: number, max = Number.POSITIVE_INFINITY) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.transform(Number),
    v.number(`${name} must be a number`),
    v.finite(`${name} must be a finite number`),
    v.minValue(0, Number.isFinite(max) ? `${name} must be 0..${max}` : `${name} must be >= 0`),
    v.maxValue(max, `${name} must be 0..${max}`),
  );

const flag = v.pipe(
  v.optional(v.picklist(['1', '0', 'true', 'false', 'yes', 'no', ''], 'use 1 or 0')),
  v.transform((value) => (value === undefined || value === '' ? undefined : ['1', 'true', 'yes'].includes(value))),
);

const url = (name: string, schemes: readonly string[]) =>
  v.optional(
    v.pipe(
      v.string(),
      v.check((value) => {
        try {
          return schemes.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, `${name} must be a URL starting with ${schemes.map((s) => `${s}//`).join(' or ')}`),
    ),
  );

/** A public base URL: http(s), no query, fragment or credentials, kept without trailing slashes. */
const publicUrl = (name: string, what: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.check((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
        } catch {
          return false;
        }
      }, `${name} must be ${what}, an http:// or https:// URL without query, fragment or credentials`),
      v.transform((value) => value.replace(/\/+$/, '')),
    ),
  );

/** `10.0.0.1, 10.1.0.0/16, ::1` as a BlockList; undefined when an entry is not an address or CIDR. */
function parseProxies(text: string): BlockList | undefined {
  const list = new BlockList();
  for (const entry of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address);
    if (family === 0) return undefined;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, type);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) return undefined;
      list.addSubnet(address, prefix, type);
    }
  }
  return list;
}

const baseSchema = v.object({
  PORT: port('PORT', 8080),
  CONTROL_PORT: port('CONTROL_PORT', 8081),
  HOST: v.optional(v.pipe(v.string(), v.minLength(1, 'HOST must not be empty')), '127.0.0.1'),
  DATABASE_URL: url('DATABASE_URL', ['postgres:', 'postgresql:']),
  SVC_DATA_DIR: v.optional(v.string(), './.svc-data'),
  REDIS_URL: url('REDIS_URL', ['redis:', 'rediss:']),
  QDRANT_URL: url('QDRANT_URL', ['http:', 'https:']),
  QDRANT_API_KEY: v.optional(v.string()),
  // The operator's admin key: at least 32 characters and 128 bits by its own character frequencies.
  SVC_MASTER_KEY: v.optional(v.pipe(v.string(), v.rawCheck(({ dataset, addIssue }) => {
    const weakness = dataset.typed ? masterKeyWeakness(dataset.value) : undefined;
    if (weakness) addIssue({ message: `SVC_MASTER_KEY ${weakness}` });
  }))),
  // How long a master key that a new SVC_MASTER_KEY (or `svc master-key rotate`) superseded keeps
  // working, for a rolling restart; 0 revokes it at once.
  SVC_MASTER_KEY_GRACE_SECS: positiveInt('SVC_MASTER_KEY_GRACE_SECS', 0),
  // Reverse proxies (addresses or CIDRs) whose X-Forwarded-For names the client: the address that
  // failed authentication is throttled by. Others' forwarding headers are not believed.
  SVC_TRUSTED_PROXIES: v.optional(v.pipe(v.string(), v.check((text) => parseProxies(text) !== undefined, 'SVC_TRUSTED_PROXIES must be comma-separated IP addresses or CIDRs, e.g. 10.0.0.0/8,::1'), v.transform((text) => parseProxies(text)!))),
  SVC_ENCRYPTION_KEY: v.optional(v.pipe(v.string(), v.check(isEncryptionKey, `SVC_ENCRYPTION_KEY ${encryptionKeyFormat}`))),
  SVC_CONFIG: v.optional(v.string()),
  AZURE_API_VERSION: v.optional(v.pipe(v.string(), v.minLength(1, 'AZURE_API_VERSION must not be empty'))),
  BEDROCK_REGION: v.optional(v.pipe(v.string(), v.regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'BEDROCK_REGION must be an AWS region such as us-east-1'))),
  AWS_REGION: v.optional(v.string()),
  AWS_ACCESS_KEY_ID: v.optional(v.string()),
  AWS_SECRET_ACCESS_KEY: v.optional(v.string()),
  AWS_SESSION_TOKEN: v.optional(v.string()),
  BEDROCK_API_KEY: v.optional(v.string()),
  BEDROCK_BASE_URL: url('BEDROCK_BASE_URL', ['http:', 'https:']),
  VERTEX_PROJECT: v.optional(v.pipe(v.string(), v.minLength(1, 'VERTEX_PROJECT must not be empty'))),
  VERTEX_LOCATION: v.optional(v.pipe(v.string(), v.minLength(1, 'VERTEX_LOCATION must not be empty')), 'global'),
  VERTEX_ACCESS_TOKEN: v.optional(v.string()),
  VERTEX_BASE_URL: url('VERTEX_BASE_URL', ['http:', 'https:']),
  SVC_MOCK_PROVIDER: flag,
  SVC_MOCK_LATENCY_MS: positiveInt('SVC_MOCK_LATENCY_MS', 0),
  SVC_MOCK_TOKENS_PER_SECOND: positiveInt('SVC_MOCK_TOKENS_PER_SECOND', 0),
  SVC_MAX_BODY_BYTES: positiveInt('SVC_MAX_BODY_BYTES', 10 * 1024 * 1024),
  // Where clients reach the gateway: the base of the URLs it answers with (generated images).
  SVC_PUBLIC_URL: publicUrl('SVC_PUBLIC_URL', 'the URL clients reach the gateway at, without /v1 (e.g. https://llm.example.com)'),
  SVC_SHUTDOWN_GRACE_MS: positiveInt('SVC_SHUTDOWN_GRACE_MS', 10_000),
  SVC_REQUEST_TIMEOUT_MS: positiveInt('SVC_REQUEST_TIMEOUT_MS', 600_000),
  SVC_FIRST_BYTE_TIMEOUT_MS: positiveInt('SVC_FIRST_BYTE_TIMEOUT_MS', 120_000),
  SVC_CONNECT_TIMEOUT_MS: positiveInt('SVC_CONNECT_TIMEOUT_MS', 10_000),
  SVC_BODY_TIMEOUT_MS: positiveInt('SVC_BODY_TIMEOUT_MS', 60_000),
  SVC_RETRY_MAX: positiveInt('SVC_RETRY_MAX', 1),
  SVC_HEDGING_DEFAULT: flag,
  SVC_BREAKER_CONSECUTIVE_FAILURES: positiveInt('SVC_BREAKER_CONSECUTIVE_FAILURES', 5),
  SVC_BREAKER_COOLDOWN_MS: positiveInt('SVC_BREAKER_COOLDOWN_MS', 5_000),
  // Arm-collapse alarms of GET /v1/admin/routing/diversity: a scope with at least MIN_DECISIONS
  // decisions alarms when its entropy (bits) is below the floor or its top model's share exceeds the cap.
  SVC_DIVERSITY_ENTROPY_FLOOR_BITS: nonNegativeNumber('SVC_DIVERSITY_ENTROPY_FLOOR_BITS', 1.0),
  SVC_DIVERSITY_ARM_SHARE_CAP: nonNegativeNumber('SVC_DIVERSITY_ARM_SHARE_CAP', 0.8, 1),
  SVC_DIVERSITY_MIN_DECISIONS: positiveInt('SVC_DIVERSITY_MIN_DECISIONS', 50),
  // Routing reports (see docs/operations.md). Drift: a dimension whose Jensen-Shannon divergence
  // (bits) between the previous and the current window exceeds the threshold has drifted; so has a
  // scope whose success rate drops or mean latency rises beyond its bound; never below MIN_DECISIONS.
  SVC_DRIFT_JS_THRESHOLD: nonNegativeNumber('SVC_DRIFT_JS_THRESHOLD', 0.1, 1),
  SVC_DRIFT_MIN_DECISIONS: positiveInt('SVC_DRIFT_MIN_DECISIONS', 50),
  SVC_DRIFT_SUCCESS_DROP: nonNegativeNumber('SVC_DRIFT_SUCCESS_DROP', 0.05, 1),
  SVC_DRIFT_LATENCY_INCREASE: nonNegativeNumber('SVC_DRIFT_LATENCY_INCREASE', 0.5),
  // Regression gate: each day against the BASELINE_DAYS before it; tolerances absolute for rates,
  // relative for p50/p95 latency.
  SVC_GATE_BASELINE_DAYS: v.pipe(positiveInt('SVC_GATE_BASELINE_DAYS', 7), v.minValue(1, 'SVC_GATE_BASELINE_DAYS must be 1..90'), v.maxValue(90, 'SVC_GATE_BASELINE_DAYS must be 1..90')),
  SVC_GATE_MIN_DECISIONS: positiveInt('SVC_GATE_MIN_DECISIONS', 20),
  SVC_GATE_MAX_SUCCESS_DROP: nonNegativeNumber('SVC_GATE_MAX_SUCCESS_DROP', 0.02, 1),
  SVC_GATE_MAX_FALLBACK_INCREASE: nonNegativeNumber('SVC_GATE_MAX_FALLBACK_INCREASE', 0.05, 1),
  SVC_GATE_MAX_LATENCY_INCREASE: nonNegativeNumber('SVC_GATE_MAX_LATENCY_INCREASE', 0.25),
  SVC_GATE_MAX_JUDGED_DROP: nonNegativeNumber('SVC_GATE_MAX_JUDGED_DROP', 0.05, 0.5),
  SVC_GATE_MIN_JUDGED_PAIRS: positiveInt('SVC_GATE_MIN_JUDGED_PAIRS', 20),
  // Capability matrix: a model's success rate over the last 24 h is judged from MIN_DECISIONS on.
  SVC_MATRIX_MIN_DECISIONS: positiveInt('SVC_MATRIX_MIN_DECISIONS', 10),
  SVC_MATRIX_MIN_SUCCESS_RATE: nonNegativeNumber('SVC_MATRIX_MIN_SUCCESS_RATE', 0.9, 1),
  // The learned router: exploration on by default (bounded by the policy), weights saved to the kv.
  SVC_ROUTER_EXPLORE: flag,
  SVC_ROUTER_SAVE_INTERVAL_MS: positiveInt('SVC_ROUTER_SAVE_INTERVAL_MS', 30_000),
  // Sticky chain routes (chain_id / conversation_id) live this long after their last request.
  SVC_STICKY_TTL_SECS: positiveInt('SVC_STICKY_TTL_SECS', 86_400),
  // Limits of a stated long_horizon_autonomous chain when the request sets none (0: none).
  SVC_CHAIN_MAX_STEPS: positiveInt('SVC_CHAIN_MAX_STEPS', 200),
  SVC_CHAIN_TIMEOUT_SECS: positiveInt('SVC_CHAIN_TIMEOUT_SECS', 3_600),
  // Answer caches (cache and full modes): lifetime (0 turns the exact and the semantic cache off), the
  // in-process L0's bounds, and whether sampled requests without a seed (temperature > 0) may be cached.
  SVC_CACHE_TTL_SECS: positiveInt('SVC_CACHE_TTL_SECS', 3_600),
  SVC_CACHE_L0_MAX_ENTRIES: positiveInt('SVC_CACHE_L0_MAX_ENTRIES', 10_000),
  SVC_CACHE_L0_MAX_MB: positiveInt('SVC_CACHE_L0_MAX_MB', 64),
  SVC_CACHE_NON_DETERMINISTIC: flag,
  // How often the learn stage writes the usage ledger and decision log (journaled in Redis first when REDIS_URL is set).
  SVC_LEARN_FLUSH_MS: positiveInt('SVC_LEARN_FLUSH_MS', 1_000),
  // The semantic cache (cache and full modes): on unless 0; the in-process index's bound (Qdrant when QDRANT_URL is set).
  SVC_SEMANTIC_CACHE: flag,
  SVC_SEMANTIC_MAX_ENTRIES: positiveInt('SVC_SEMANTIC_MAX_ENTRIES', 10_000),
  // Its embedder: `shared` (the runtime's sentence encoder, SVC_SENTENCE_ENCODER), `hashed` (local n-grams with their trained verifier) or `<provider>/<embeddings model>[@dimensions]`, which needs SVC_SEMANTIC_THRESHOLD.
  SVC_SEMANTIC_EMBEDDER: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('SVC_SEMANTIC_EMBEDDER: use shared, hashed or <provider>/<model>[@dimensions]')), 'shared'),
  SVC_SEMANTIC_THRESHOLD: v.optional(
    v.pipe(v.string(), v.transform(Number), v.number('SVC_SEMANTIC_THRESHOLD must be a number in (0, 1]'), v.gtValue(0, 'SVC_SEMANTIC_THRESHOLD must be a number in (0, 1]'), v.maxValue(1, 'SVC_SEMANTIC_THRESHOLD must be a number in (0, 1]')),
  ),
  // Voice billing (/v1/voice/* and realtime sessions): the platform fee per minute of audio, USD, on top of the providers' pass-through cost.
  SVC_VOICE_PLATFORM_FEE_PER_MINUTE: nonNegativeNumber('SVC_VOICE_PLATFORM_FEE_PER_MINUTE', 0.002, 1),
  // Vectors of the in-process memory index (full mode; Qdrant when QDRANT_URL is set), newest kept.
  SVC_MEMORY_MAX_ENTRIES: positiveInt('SVC_MEMORY_MAX_ENTRIES', 2_000),
  // The local sentence encoder every semantic stage shares: `minilm` (all-MiniLM-L6-v2 on CPU, int8 weights, ~95 MiB)
  // or `hashed` (a lexical n-gram embedder: no model, for tests and very small machines).
  SVC_SENTENCE_ENCODER: v.optional(v.picklist(['minilm', 'hashed'], 'SVC_SENTENCE_ENCODER must be minilm or hashed'), 'minilm'),
  // Days a stated fact is kept after it was last stated (retention of memory).
  SVC_MEMORY_TTL_DAYS: positiveInt('SVC_MEMORY_TTL_DAYS', 90),
  // Days a kept Responses-API answer (`store`) can be retrieved and continued.
  SVC_RESPONSES_TTL_DAYS: v.pipe(positiveInt('SVC_RESPONSES_TTL_DAYS', 30), v.minValue(1, 'SVC_RESPONSES_TTL_DAYS must be at least 1')),
  // `/v1/files`: the largest upload (413 above) and the days a file lives (batch outputs too).
  SVC_FILES_MAX_BYTES: positiveInt('SVC_FILES_MAX_BYTES', 100 * 1024 * 1024),
  SVC_FILES_TTL_DAYS: v.pipe(positiveInt('SVC_FILES_TTL_DAYS', 30), v.minValue(1, 'SVC_FILES_TTL_DAYS must be at least 1')),
  // Lines of one batch in flight at once on an instance (its batch worker works one batch at a time).
  SVC_BATCH_CONCURRENCY: positiveInt('SVC_BATCH_CONCURRENCY', 4),
  // How long a batch stays leased to an instance that stopped renewing it (killed): then another takes it over.
  SVC_BATCH_LEASE_MS: positiveInt('SVC_BATCH_LEASE_MS', 60_000),
  // Chat lines for a provider with its own batch API (OpenAI, Anthropic) go to it at its batch price (default on; 0: the gateway runs every line),
  // and how often a batch waiting on such an API is polled.
  SVC_BATCH_NATIVE: flag,
  SVC_BATCH_NATIVE_POLL_MS: v.pipe(positiveInt('SVC_BATCH_NATIVE_POLL_MS', 60_000), v.minValue(100, 'SVC_BATCH_NATIVE_POLL_MS must be at least 100')),
  // The dashboard: its public origin (WebAuthn RP id and allowed origin; default http://localhost:CONTROL_PORT),
  // the lifetime of a passkey session, and how long an enrollment link works.
  SVC_DASHBOARD_ORIGIN: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('SVC_DASHBOARD_ORIGIN must not be empty'))),
  SVC_SESSION_TTL_SECS: v.pipe(positiveInt('SVC_SESSION_TTL_SECS', 43_200), v.minValue(60, 'SVC_SESSION_TTL_SECS must be at least 60')),
  SVC_ENROLLMENT_TTL_SECS: v.pipe(positiveInt('SVC_ENROLLMENT_TTL_SECS', 3_600), v.minValue(60, 'SVC_ENROLLMENT_TTL_SECS must be at least 60')),
  // Alerts: how often SLOs are judged and refusal counts shared (0: never), and the refusals of one
  // organisation and one allowance within a minute that raise a spike alert.
  SVC_ALERTS_INTERVAL_MS: positiveInt('SVC_ALERTS_INTERVAL_MS', 30_000),
  SVC_ALERT_REFUSALS_PER_MINUTE: v.pipe(positiveInt('SVC_ALERT_REFUSALS_PER_MINUTE', 20), v.minValue(1, 'SVC_ALERT_REFUSALS_PER_MINUTE must be at least 1')),
  // The MCP gateway (/mcp): whether registered MCP servers may live at loopback, link-local or
  // private addresses (off: tenants' URLs reach only public addresses), how long one call to a
  // server may take, and the largest response accepted from one.
  SVC_MCP_ALLOW_PRIVATE_URLS: flag,
  SVC_MCP_TIMEOUT_MS: v.pipe(positiveInt('SVC_MCP_TIMEOUT_MS', 30_000), v.minValue(1, 'SVC_MCP_TIMEOUT_MS must be at least 1')),
  SVC_MCP_MAX_RESPONSE_BYTES: v.pipe(positiveInt('SVC_MCP_MAX_RESPONSE_BYTES', 4 * 1024 * 1024), v.minValue(1024, 'SVC_MCP_MAX_RESPONSE_BYTES must be at least 1024')),
  // The control plane's public base URL (issuer of /.well-known/*); absent: the request's origin.
  SVC_CONTROL_PUBLIC_URL: publicUrl('SVC_CONTROL_PUBLIC_URL', "the control plane's public base URL"),
  // Who reads /metrics on the app ports: Bearer SVC_METRICS_TOKEN, else loopback callers only;
  // METRICS_PORT adds a listener (on HOST) that serves only /metrics, for a scraper's network.
  SVC_METRICS_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, 'SVC_METRICS_TOKEN must be at least 16 characters'))),
  METRICS_PORT: v.optional(v.pipe(v.string(), v.transform(Number), v.number('METRICS_PORT must be a number'), v.integer('METRICS_PORT must be a whole number'), v.minValue(0, 'METRICS_PORT must be 0..65535'), v.maxValue(65535, 'METRICS_PORT must be 0..65535'))),
  // OpenTelemetry traces, by the standard variables; off unless an OTLP endpoint is set.
  OTEL_EXPORTER_OTLP_ENDPOINT: url('OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http:', 'https:']),
  OTEL_EXPORTER_OTLP_HEADERS: v.optional(v.string()),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: v.optional(v.string()),
  OTEL_EXPORTER_OTLP_PROTOCOL: v.optional(v.picklist(['http/json'], 'OTEL_EXPORTER_OTLP_PROTOCOL: the gateway exports OTLP over HTTP as JSON; use http/json or leave it unset')),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: v.optional(v.picklist(['http/json'], 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: the gateway exports OTLP over HTTP as JSON; use http/json or leave it unset')),
  OTEL_TRACES_EXPORTER: v.optional(v.picklist(['otlp', 'none'], 'OTEL_TRACES_EXPORTER: use otlp or none')),
  OTEL_SDK_DISABLED: v.optional(v.picklist(['true', 'false', ''], 'OTEL_SDK_DISABLED: use true or false')),
  OTEL_SERVICE_NAME: v.optional(v.pipe(v.string(), v.minLength(1, 'OTEL_SERVICE_NAME must not be empty')), 'svc-gateway'),
  OTEL_RESOURCE_ATTRIBUTES: v.optional(v.string()),
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'use one of fatal, error, warn, info, debug, trace, silent'), 'info'),
});

/**
 * Whether the gateway reads the variable `name`: one of the schema above, or a provider's
 * `<PROVIDER>_API_KEY` / `<PROVIDER>_BASE_URL`. Deployment files set only these (a test checks
 * the Dockerfile, compose.yaml and the Helm chart against it).
 */
export function isEnvVariable(name: string): boolean {
  if (Object.hasOwn(baseSchema.entries, name)) return true;
  return envProviders.some((id) => name === `${id.toUpperCase()}_API_KEY` || name === `${id.toUpperCase()}_BASE_URL`);
}

export interface ProviderEnv {
  apiKeys: string[];
  baseUrl?: string;
}

export type Env = v.InferOutput<typeof baseSchema> & {
  providers: Partial<Record<EnvProvider, ProviderEnv>>;
  /** The dashboard's relying party, from SVC_DASHBOARD_ORIGIN (validated) or http://localhost:CONTROL_PORT. */
  dashboard: RelyingParty;
};

/** A configuration error: one line naming the variable and the fix. */
export class ConfigError extends Error {
  constructor(readonly variable: string, message: string, options?: ErrorOptions) {
    super(`${variable}: ${message}`, options);
    this.name = 'ConfigError';
  }
}

/** Validates the environment; throws ConfigError naming the first bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = v.safeParse(baseSchema, source, { abortEarly: true });
  if (!result.success) {
    const issue = result.issues[0];
    const variable = issue.path?.map((item) => String(item.key)).join('.') ?? 'environment';
    throw new ConfigError(variable, issue.message);
  }
  const providers: Env['providers'] = {};
  for (const id of envProviders) {
    const prefix = id.toUpperCase();
    const keys = source[`${prefix}_API_KEY`];
    const baseUrl = source[`${prefix}_BASE_URL`];
    if (baseUrl !== undefined && baseUrl !== '') {
      try {
        const protocol = new URL(baseUrl).protocol;
        if (protocol !== 'http:' && protocol !== 'https:') throw new Error(protocol);
      } catch {
        throw new ConfigError(`${prefix}_BASE_URL`, 'must be an http:// or https:// URL');
      }
    }
    const apiKeys = (keys ?? '').split(',').map((key) => key.trim()).filter(Boolean);
    // Ollama runs without keys: its base URL alone configures it.
    if (apiKeys.length === 0 && !(id === 'ollama' && baseUrl)) continue;
    if (id === 'azure' && !baseUrl) throw new ConfigError('AZURE_BASE_URL', 'is required with AZURE_API_KEY: the resource endpoint, e.g. https://my-resource.openai.azure.com');
    providers[id] = { apiKeys, ...(baseUrl ? { baseUrl: baseUrl.replace(/\/+$/, '') } : {}) };
  }
  let dashboard: RelyingParty;
  try {
    dashboard = relyingPartyFromOrigin(result.output.SVC_DASHBOARD_ORIGIN ?? `http://localhost:${result.output.CONTROL_PORT}`);
  } catch (error) {
    throw new ConfigError('SVC_DASHBOARD_ORIGIN', (error as Error).message);
  }
  return { ...result.output, providers, dashboard };
}
