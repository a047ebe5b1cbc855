import { parseArgs } from 'node:util';
import { TARGET_NAMES, type TargetName } from './target.js';

/** The `--only` name of the routing-decision part. */
const ROUTER = 'router';
/** The `--only` name of the answer-cache part. */
const CACHE = 'cache';
/** The `--only` name of the in-process semantic-cache part. */
const SEMANTIC = 'semantic';
/** The `--only` name of the sentence-encoder part. */
const ENCODER = 'encoder';
/** The `--only` name of the proxy run beside a dashboard report over a large ledger. */
const REPORT_LOOP = 'report-loop';
/** The `--only` name of the production-stores rows (`DATABASE_URL` + `REDIS_URL`). */
const STORES = 'stores';
/** Every `--only` name, in run order. */
const PARTS: readonly string[] = [...TARGET_NAMES, ROUTER, SEMANTIC, CACHE, ENCODER, REPORT_LOOP, STORES];

/** Parsed `pnpm bench` flags. */
export interface BenchOptions {
  durationSec: number;
  warmupSec: number;
  connections: number[];
  only: TargetName[];
  /** Measure the in-process routing decision (`--only router`, or by default). */
  router: boolean;
  /**
   * Measure the answer cache (`--only cache`, or by default): exact hit vs miss vs proxy mode on
   * a svc of its own.
   */
  cache: boolean;
  /**
   * Measure the semantic cache in process (`--only semantic`, or by default): the shared sentence
   * encoder's embedding and the lookup over the in-process store at the gateway's capacity and at 10,000 entries.
   */
  semantic: boolean;
  /**
   * Measure the local sentence encoder (`--only encoder`, or by default): svc with
   * `SVC_SENTENCE_ENCODER=hashed` against the default `minilm`, in cache and full mode, and a
   * proxy-mode probe beside full-mode load.
   */
  encoder: boolean;
  /**
   * svc in proxy mode at 16 connections on a data directory seeded with `ledgerRows` usage rows,
   * alone and while a dashboard report over that ledger runs in a loop (`--only report-loop`, or by default).
   */
  reportLoop: boolean;
  /** Usage rows seeded for the report-loop part (default 1,000,000). */
  ledgerRows: number;
  /**
   * svc's proxy and exact-hit runs on PostgreSQL + Redis (`--only stores`, or by default); skipped
   * with a note when `stores` has no URLs.
   */
  stores: boolean;
  /** `--database-url` / `--redis-url`, else `BENCH_DATABASE_URL` / `BENCH_REDIS_URL`. */
  storeUrls: { databaseUrl?: string; redisUrl?: string };
  /** Streamed requests, one at a time, per target for time to first token (0: not measured). */
  ttftRequests: number;
  /** The mock's delay before its first byte during the time-to-first-token runs, ms. */
  ttftUpstreamMs: number;
  /** Seconds a gateway is left alone after it is ready before its idle RSS is read. */
  settleSec: number;
  /** `--soak <s>`: a proxy-mode soak of that many seconds, RSS every 10 s (absent: no soak). */
  soakSec?: number;
  /** Requests per second of the soak's load. */
  soakRate: number;
  /** Run the streaming variant too (after the JSON runs). */
  stream: boolean;
  /** Answer length of the mock, tokens. */
  tokens: number;
  /** Cap on requests per second across all connections (autocannon overallRate); closed loop when absent. */
  rate?: number;
  /** Pin gateway to CPU 1 and mock + load generator to CPU 0 (when taskset exists and nproc >= 2). */
  pin: boolean;
  /**
   * Also measure svc answering after one failed attempt + fallback against svc answering normally
   * (same connections, rate and stream settings), on a separate svc with two providers.
   */
  fallback: boolean;
  /**
   * `NAME=VALUE` variables for an extra fallback run on a second svc (e.g. a breaker knob), so a
   * run where the failing provider is always tried can sit next to the default one.
   */
  fallbackEnv: Record<string, string>;
  /** Write docs/benchmarks.md (the JSON file under tooling/bench/results/ is always written). */
  writeDocs: boolean;
  help: boolean;
}

/** The `--help` text. */
export const USAGE = `usage: pnpm bench [-- flags]
  --duration <s>         seconds per measured run (default 10)
  --warmup <s>           seconds of warm-up before each run (default 2)
  --connections <list>   concurrent connections, comma-separated (default 1,16; issue 34's goals read 16)
  --only <list>          parts: direct,floor,svc,svc-otel,portkey (HTTP targets: floor is a minimal Node.js proxy,
                         svc runs in proxy mode, svc-otel is the same with OpenTelemetry on, its spans
                         exported to an in-process sink), router (the in-process routing decision over a 100-model
                         catalog), semantic (the semantic cache in process: embedding with the shared
                         encoder + lookup at the gateway's capacity and 10,000 entries), cache (exact hit
                         vs miss vs proxy mode on svc) and encoder (SVC_SENTENCE_ENCODER=hashed vs minilm in cache and full
                         mode, proxy requests beside full-mode load), report-loop (svc proxy mode at 16
                         connections on a seeded ledger, alone and beside a dashboard report in a loop) and
                         stores (svc proxy and exact-hit runs on PostgreSQL + Redis); default all
  --ttft-requests <n>    streamed requests, one at a time, per target for time to first token (default 80; 0: off)
  --ttft-upstream-ms <n> the mock's delay before its first byte in those requests (default 1)
  --settle <s>           seconds a ready gateway is left alone before its idle RSS is read (default 5)
  --ledger-rows <n>      usage rows seeded for report-loop (default 1000000)
  --database-url <url>   PostgreSQL for the stores rows (default: env BENCH_DATABASE_URL; none: skipped)
  --redis-url <url>      Redis for the stores rows (default: env BENCH_REDIS_URL; none: skipped)
  --soak <s>             also soak a svc with proxy-mode load for s seconds, RSS every 10 s (e.g. 600)
  --soak-rate <n>        requests/s of the soak (default 200)
  --stream               also run the streaming variant (stream: true + include_usage)
  --tokens <n>           mock answer length in tokens (default 16)
  --rate <n>             send at most n requests/s in total (moderate-load runs; default: as fast as answered)
  --fallback             also measure svc after one failed attempt + fallback (first provider answers 503)
                         against svc answering normally, same load shape
  --fallback-env <N=V>   with --fallback: one more fallback run on an svc started with these variables
                         (repeatable; e.g. a circuit-breaker knob so the failing provider is always tried)
  --no-pin               do not pin processes to CPUs with taskset
  --no-docs              do not rewrite docs/benchmarks.md`;

function positive(name: string, raw: string, integer: boolean): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got "${raw}"`);
  }
  return value;
}

const FLAGS = {
  duration: { type: 'string', default: '10' },
  warmup: { type: 'string', default: '2' },
  connections: { type: 'string', default: '1,16' },
  only: { type: 'string', default: PARTS.join(',') },
  stream: { type: 'boolean', default: false },
  tokens: { type: 'string', default: '16' },
  rate: { type: 'string' },
  fallback: { type: 'boolean', default: false },
  'fallback-env': { type: 'string', multiple: true },
  'ttft-requests': { type: 'string', default: '80' },
  'ttft-upstream-ms': { type: 'string', default: '1' },
  settle: { type: 'string', default: '5' },
  'ledger-rows': { type: 'string', default: '1000000' },
  'database-url': { type: 'string' },
  'redis-url': { type: 'string' },
  soak: { type: 'string' },
  'soak-rate': { type: 'string', default: '200' },
  'no-pin': { type: 'boolean', default: false },
  'no-docs': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function atLeastZero(name: string, raw: string, integer = false): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} must be ${integer ? 'a whole number' : 'a number'} >= 0, got "${raw}"`);
  }
  return value;
}

function parseOnly(raw: string): string[] {
  const only = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of only) {
    if (!PARTS.includes(name)) throw new Error(`--only: unknown part "${name}" (use ${PARTS.join(',')})`);
  }
  return only;
}

function parseFallbackEnv(pairs: readonly string[], fallback: boolean): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? '' : pair.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`--fallback-env must be NAME=VALUE, got "${pair}"`);
    env[name] = pair.slice(eq + 1);
  }
  if (Object.keys(env).length > 0 && !fallback) throw new Error('--fallback-env needs --fallback');
  return env;
}

function storeUrls(flags: { 'database-url'?: string; 'redis-url'?: string }, env: NodeJS.ProcessEnv): BenchOptions['storeUrls'] {
  const databaseUrl = flags['database-url'] ?? env.BENCH_DATABASE_URL;
  const redisUrl = flags['redis-url'] ?? env.BENCH_REDIS_URL;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error(`--database-url must be a postgres:// URL, got "${databaseUrl}"`);
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) throw new Error(`--redis-url must be a redis:// URL, got "${redisUrl}"`);
  return { ...(databaseUrl ? { databaseUrl } : {}), ...(redisUrl ? { redisUrl } : {}) };
}

/** Parse bench flags (`env` supplies the store URLs' fallbacks); throws an Error naming the bad flag. */
export function parseBenchArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const { values } = parseArgs({ args: argv.filter((a) => a !== '--'), options: FLAGS });
  const only = parseOnly(values.only);
  return {
    durationSec: positive('duration', values.duration, false),
    warmupSec: atLeastZero('warmup', values.warmup),
    connections: values.connections.split(',').map((c) => positive('connections', c.trim(), true)),
    only: TARGET_NAMES.filter((t) => only.includes(t)),
    router: only.includes(ROUTER),
    semantic: only.includes(SEMANTIC),
    cache: only.includes(CACHE),
    encoder: only.includes(ENCODER),
    reportLoop: only.includes(REPORT_LOOP),
    ledgerRows: positive('ledger-rows', values['ledger-rows'], true),
    stores: only.includes(STORES),
    storeUrls: storeUrls(values, env),
    ttftRequests: atLeastZero('ttft-requests', values['ttft-requests'], true),
    ttftUpstreamMs: atLeastZero('ttft-upstream-ms', values['ttft-upstream-ms']),
    settleSec: atLeastZero('settle', values.settle),
    ...(values.soak === undefined ? {} : { soakSec: positive('soak', values.soak, true) }),
    soakRate: positive('soak-rate', values['soak-rate'], true),
    stream: values.stream,
    tokens: positive('tokens', values.tokens, true),
    ...(values.rate === undefined ? {} : { rate: positive('rate', values.rate, true) }),
    fallback: values.fallback,
    fallbackEnv: parseFallbackEnv(values['fallback-env'] ?? [], values.fallback),
    pin: !values['no-pin'],
    writeDocs: !values['no-docs'],
    help: values.help,
  };
}
