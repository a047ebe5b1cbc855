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
/** Every `--only` name, in run order. */
const PARTS: readonly string[] = [...TARGET_NAMES, ROUTER, SEMANTIC, CACHE, ENCODER];

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
  --connections <list>   concurrent connections, comma-separated (default 1,10,50)
  --only <list>          parts: direct,floor,svc,svc-otel,portkey (HTTP targets: floor is a minimal Node.js proxy,
                         svc runs in proxy mode, svc-otel is the same with OpenTelemetry on, its spans
                         exported to an in-process sink), router (the in-process routing decision over a 100-model
                         catalog), semantic (the semantic cache in process: embedding with the shared
                         encoder + lookup at the gateway's capacity and 10,000 entries), cache (exact hit
                         vs miss vs proxy mode on svc) and encoder (SVC_SENTENCE_ENCODER=hashed vs minilm in cache and full
                         mode, proxy requests beside full-mode load); default all
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

/** Parse bench flags; throws an Error naming the bad flag. */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--'),
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '1,10,50' },
      only: { type: 'string', default: PARTS.join(',') },
      stream: { type: 'boolean', default: false },
      tokens: { type: 'string', default: '16' },
      rate: { type: 'string' },
      fallback: { type: 'boolean', default: false },
      'fallback-env': { type: 'string', multiple: true },
      'no-pin': { type: 'boolean', default: false },
      'no-docs': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const only = values.only.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of only) {
    if (!PARTS.includes(name)) {
      throw new Error(`--only: unknown part "${name}" (use ${PARTS.join(',')})`);
    }
  }
  const fallbackEnv: Record<string, string> = {};
  for (const pair of values['fallback-env'] ?? []) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? '' : pair.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new Error(`--fallback-env must be NAME=VALUE, got "${pair}"`);
    }
    fallbackEnv[name] = pair.slice(eq + 1);
  }
  if (Object.keys(fallbackEnv).length > 0 && !values.fallback) {
    throw new Error('--fallback-env needs --fallback');
  }
  const warmup = Number(values.warmup);
  if (!Number.isFinite(warmup) || warmup < 0) {
    throw new Error(`--warmup must be a number >= 0, got "${values.warmup}"`);
  }
  return {
    durationSec: positive('duration', values.duration, false),
    warmupSec: warmup,
    connections: values.connections.split(',').map((c) => positive('connections', c.trim(), true)),
    only: TARGET_NAMES.filter((t) => only.includes(t)),
    router: only.includes(ROUTER),
    semantic: only.includes(SEMANTIC),
    cache: only.includes(CACHE),
    encoder: only.includes(ENCODER),
    stream: values.stream,
    tokens: positive('tokens', values.tokens, true),
    ...(values.rate === undefined ? {} : { rate: positive('rate', values.rate, true) }),
    fallback: values.fallback,
    fallbackEnv,
    pin: !values['no-pin'],
    writeDocs: !values['no-docs'],
    help: values.help,
  };
}
