import { type DestinationStream, type Logger, type LoggerOptions as LoggerSettings, pino } from 'pino';

export type { DestinationStream, Logger } from 'pino';

/** Settings of {@link createLogger}. */
export interface LoggerOptions {
  /** pino level: `fatal` | `error` | `warn` | `info` | `debug` | `trace` | `silent`. Default `info`. */
  level?: string;
  /** Where JSON lines go. Default: stdout. Tests pass a stream to capture them. */
  destination?: DestinationStream;
  /** Fields on every line. Default: pino's `pid` and `hostname`. */
  base?: Record<string, unknown>;
}

/**
 * Paths that may carry secrets (API keys, provider keys, session cookies); logged as
 * `[Redacted]` wherever a caller puts them.
 */
const REDACT = [
  'authorization',
  'api_key',
  'apiKey',
  'password',
  '*.authorization',
  '*.api_key',
  '*.apiKey',
  '*.password',
  '*.headers.authorization',
  '*.headers["x-api-key"]',
  '*.headers.cookie',
];

/**
 * A JSON-lines pino logger: `{"level":"info","time":"<ISO-8601>",...,"msg":"..."}`.
 * Per-request loggers are children: `logger.child({ request_id })`.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const settings: LoggerSettings = {
    level: options.level ?? 'info',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: REDACT,
  };
  if (options.base !== undefined) settings.base = options.base;
  // Without a destination pino writes stdout through an asynchronous SonicBoom (`fs.write` on
  // libuv's pool; lines that come while one is in flight wait and go in the next; flushed at
  // exit), so a killed process can lose the lines still waiting.
  return options.destination === undefined ? pino(settings) : pino(settings, options.destination);
}
