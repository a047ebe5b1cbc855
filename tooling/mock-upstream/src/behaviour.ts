/** A fault the mock can inject instead of (or in the middle of) a normal answer. */
export type MockFault =
  | '400'
  | '402'
  | '429'
  | '500'
  | '503'
  | '529'
  | 'timeout'
  | 'drop-mid-stream'
  | 'context-length';

/** Every fault name accepted by `x-mock-fault`, `--fault` and `configure({ fault })`. */
export const MOCK_FAULTS: readonly MockFault[] = [
  '400',
  '402',
  '429',
  '500',
  '503',
  '529',
  'timeout',
  'drop-mid-stream',
  'context-length',
];

/** How the mock answers; the server-wide defaults, overridable per request with `x-mock-*` headers. */
export interface MockBehaviour {
  /** Delay before the first byte of the answer, in milliseconds. */
  latencyMs: number;
  /** Stream pacing in tokens per second; 0 sends every token at once. Non-stream answers wait `tokens / tokensPerSecond` too. */
  tokensPerSecond: number;
  /** Answer length in tokens (one token = one word of the canned answer). */
  tokens: number;
  /** Fault injected into requests; `undefined` answers normally. */
  fault: MockFault | undefined;
  /** Chance (0..1) that a request gets `fault`; 1 = every request. */
  faultProbability: number;
  /** When set, only the first N requests get `fault`; later ones succeed. */
  failFirst: number | undefined;
  /** `retry-after` seconds sent with a 429. */
  retryAfterSeconds: number;
  /**
   * Faults by credential: a request whose API key (`Authorization: Bearer <key>`, `x-api-key` or
   * `x-goog-api-key`) is a key here gets that fault on every request, whatever `faultProbability`
   * and `failFirst` say; an `x-mock-fault` header still wins. Lets one mock play a failing
   * provider and a healthy one at once (two gateway providers with different keys).
   */
  faultKeys: Readonly<Record<string, MockFault>> | undefined;
  /**
   * OpenAI chat with `tool_choice: "required"`: `off` calls the first tool; `sequential` calls
   * every tool, one call's fragments after another's; `interleaved` announces every call, then
   * alternates their argument fragments, as OpenAI's parallel tool calls may.
   */
  parallelToolCalls: ParallelToolCalls;
  /**
   * The OpenAI-dialect models this upstream serves: `GET /v1/models` lists them, and a chat
   * request naming another answers OpenAI's 404 `model_not_found`. `undefined` (default): a fixed
   * list, and any model is answered.
   */
  models: readonly string[] | undefined;
  /**
   * OpenAI chat answers by model: a request naming a model here is answered with that text instead
   * of the canned one (non-streamed; usage counts its words). Lets models answer differently.
   */
  answers: Readonly<Record<string, string>> | undefined;
  /**
   * OpenAI chat as a pairwise judge: a request whose `response_format` is the json_schema
   * `pairwise_verdict` (the gateway's shadow judging) answers `{"winner": "A" | "B" | "tie"}`:
   * the answer after `[Answer A]` or `[Answer B]` that contains this text wins (both or neither:
   * tie). Undefined: the judge always answers `{"winner": "A"}` (a judge with position bias).
   */
  judgePrefers: string | undefined;
  /**
   * Native batches (OpenAI `/v1/batches`, Anthropic `/v1/messages/batches`): how many retrieves a
   * batch takes to end; each runs an equal share of its lines, so a batch polled fewer times is
   * still in flight and a cancel leaves the rest unrun. Default 1.
   */
  batchPolls: number;
  /**
   * The next this-many native batch creations are accepted and stored, then answered 500 (the
   * answer lost, as when the client died before it read it); each such answer counts one down. Default 0.
   */
  loseBatchCreates: number;
  /** A native batch creation is stored at once and answered this many ms later (a client killed meanwhile never learns its id). Default 0. */
  batchCreateDelayMs: number;
}

export type ParallelToolCalls = 'off' | 'sequential' | 'interleaved';
const parallelModes: readonly ParallelToolCalls[] = ['off', 'sequential', 'interleaved'];

/** What one request will do, after headers, probability and counters are applied. */
export interface RequestPlan {
  latencyMs: number;
  tokensPerSecond: number;
  tokens: number;
  fault: MockFault | undefined;
  retryAfterSeconds: number;
}

/** Defaults of a freshly started mock: instant, 16 tokens, no faults. */
export const DEFAULT_BEHAVIOUR: MockBehaviour = {
  latencyMs: 0,
  tokensPerSecond: 0,
  tokens: 16,
  fault: undefined,
  faultProbability: 1,
  failFirst: undefined,
  retryAfterSeconds: 1,
  faultKeys: undefined,
  parallelToolCalls: 'off',
  models: undefined,
  answers: undefined,
  judgePrefers: undefined,
  batchPolls: 1,
  loseBatchCreates: 0,
  batchCreateDelayMs: 0,
};

/** Narrow a string to a fault name. */
export function isMockFault(value: string): value is MockFault {
  return (MOCK_FAULTS as readonly string[]).includes(value);
}

/** Pick the known, well-typed behaviour fields from an untrusted JSON object (`POST /__mock/configure`). */
export function behaviourFromJson(json: Record<string, unknown>): Partial<MockBehaviour> {
  const out: Partial<MockBehaviour> = {};
  const numeric = ['latencyMs', 'tokensPerSecond', 'tokens', 'faultProbability', 'retryAfterSeconds', 'batchPolls', 'loseBatchCreates', 'batchCreateDelayMs'] as const;
  for (const key of numeric) {
    const value = json[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) out[key] = value;
  }
  if (typeof json['failFirst'] === 'number' || json['failFirst'] === null) {
    out.failFirst = json['failFirst'] ?? undefined;
  }
  const fault = json['fault'];
  if (fault === null) out.fault = undefined;
  else if (typeof fault === 'string' && isMockFault(fault)) out.fault = fault;
  const parallel = json['parallelToolCalls'];
  if (typeof parallel === 'string' && (parallelModes as readonly string[]).includes(parallel)) out.parallelToolCalls = parallel as ParallelToolCalls;
  const models = json['models'];
  if (models === null) out.models = undefined;
  else if (Array.isArray(models)) out.models = models.filter((m): m is string => typeof m === 'string' && m !== '');
  const answers = json['answers'];
  if (answers === null) out.answers = undefined;
  else if (typeof answers === 'object' && !Array.isArray(answers)) {
    out.answers = Object.fromEntries(Object.entries(answers as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  }
  const prefers = json['judgePrefers'];
  if (prefers === null) out.judgePrefers = undefined;
  else if (typeof prefers === 'string') out.judgePrefers = prefers;
  const faultKeys = json['faultKeys'];
  if (faultKeys === null) out.faultKeys = undefined;
  else if (typeof faultKeys === 'object' && !Array.isArray(faultKeys)) {
    const keys: Record<string, MockFault> = {};
    for (const [key, value] of Object.entries(faultKeys as Record<string, unknown>)) {
      if (key !== '' && typeof value === 'string' && isMockFault(value)) keys[key] = value;
    }
    out.faultKeys = Object.keys(keys).length > 0 ? keys : undefined;
  }
  return out;
}

/**
 * Parse `--fault-key` values, `<key>` or `<key>=<fault>` (default fault 503), into a
 * `faultKeys` map; throws naming the bad value.
 */
export function parseFaultKeys(values: readonly string[]): Record<string, MockFault> {
  const keys: Record<string, MockFault> = {};
  for (const value of values) {
    const eq = value.lastIndexOf('=');
    const key = eq < 0 ? value : value.slice(0, eq);
    const fault = eq < 0 ? '503' : value.slice(eq + 1);
    if (key === '') throw new Error(`--fault-key needs a key, got "${value}"`);
    if (!isMockFault(fault)) throw new Error(`--fault-key ${key}: unknown fault "${fault}"`);
    keys[key] = fault;
  }
  return keys;
}
