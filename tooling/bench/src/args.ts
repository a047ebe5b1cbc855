import { parseArgs } from 'node:util';
import { TARGET_NAMES, type TargetName } from './target.js';

/** Parsed `pnpm bench` flags. */
export interface BenchOptions {
  durationSec: number;
  warmupSec: number;
  connections: number[];
  only: TargetName[];
  /** Run the streaming variant too (after the JSON runs). */
  stream: boolean;
  /** Answer length of the mock, tokens. */
  tokens: number;
  /** Cap on requests per second across all connections (autocannon overallRate); closed loop when absent. */
  rate?: number;
  /** Pin gateway to CPU 1 and mock + load generator to CPU 0 (when taskset exists and nproc >= 2). */
  pin: boolean;
  /** Write docs/benchmarks.md (the JSON file under tooling/bench/results/ is always written). */
  writeDocs: boolean;
  help: boolean;
}

/** The `--help` text. */
export const USAGE = `usage: pnpm bench [-- flags]
  --duration <s>         seconds per measured run (default 10)
  --warmup <s>           seconds of warm-up before each run (default 2)
  --connections <list>   concurrent connections, comma-separated (default 1,10,50)
  --only <list>          targets: direct,svc,portkey (default all)
  --stream               also run the streaming variant (stream: true + include_usage)
  --tokens <n>           mock answer length in tokens (default 16)
  --rate <n>             send at most n requests/s in total (moderate-load runs; default: as fast as answered)
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
      only: { type: 'string', default: TARGET_NAMES.join(',') },
      stream: { type: 'boolean', default: false },
      tokens: { type: 'string', default: '16' },
      rate: { type: 'string' },
      'no-pin': { type: 'boolean', default: false },
      'no-docs': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const only = values.only.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of only) {
    if (!(TARGET_NAMES as readonly string[]).includes(name)) {
      throw new Error(`--only: unknown target "${name}" (use ${TARGET_NAMES.join(',')})`);
    }
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
    stream: values.stream,
    tokens: positive('tokens', values.tokens, true),
    ...(values.rate === undefined ? {} : { rate: positive('rate', values.rate, true) }),
    pin: !values['no-pin'],
    writeDocs: !values['no-docs'],
    help: values.help,
  };
}
