import { tracingChannel } from 'node:diagnostics_channel';
import { type Logger, pino } from 'pino';

/** A flat line's fields: scalars only (an undefined field is left out, as pino leaves it out). */
export type FlatFields = Record<string, string | number | boolean | undefined>;

const symbols = pino.symbols;
/** pino's own tracing of its serialisation: with a subscriber, every line goes through pino. */
const asJsonTraced = tracingChannel('pino_asJson');
/** A UTF-16 surrogate: pino writes a lone one raw where JSON.stringify escapes it. */
const surrogate = /[\ud800-\udfff]/;

/** The logger's internals pino reaches by its exported symbols. */
type Internals = Record<symbol, unknown>;

/** True when pino's serialisation of flat `fields` is exactly `JSON.stringify`'s (no hook, formatter, serializer or redaction of them). */
function plainSerialisation(logger: Logger, keys: readonly string[]): boolean {
  const at = logger as unknown as Internals;
  const formatters = at[symbols.formattersSym] as { log?: unknown };
  const hooks = at[symbols.hooksSym] as { logMethod?: unknown; streamWrite?: unknown };
  const serializers = at[symbols.serializersSym] as Record<string, unknown>;
  const stringifiers = at[symbols.stringifiersSym] as Record<string | symbol, unknown>;
  if (formatters.log || hooks.logMethod || hooks.streamWrite || at[symbols.mixinSym] || at[symbols.nestedKeySym] || logger.msgPrefix) return false;
  if (at[symbols.messageKeySym] !== 'msg' || stringifiers[symbols.wildcardFirstSym]) return false;
  // pino reads an object with `method`, `headers` and `socket` as a request to map.
  return keys.every((key) => key !== 'headers' && !surrogate.test(key) && !serializers[key] && !stringifiers[key]);
}

/**
 * A writer of `logger.info(fields, msg)` lines for a fixed set of flat fields, byte for byte
 * pino's, made with one `JSON.stringify` of the fields where pino concatenates each key and value
 * (~3 KB of short-lived strings a line). Falls back to `logger.info` whenever the two could
 * differ: a logger with hooks, formatters, serializers or redaction of these keys, a destination
 * that wants pino's metadata, pino's tracing channel in use, or a string holding a surrogate.
 */
export function flatInfoWriter(logger: Logger, keys: readonly string[]): (fields: FlatFields, msg: string) => void {
  const at = logger as unknown as Internals;
  if (!plainSerialisation(logger, keys)) return (fields, msg) => logger.info(fields, msg);
  const levelPrefix = (at[symbols.lsCacheSym] as Record<number, string>)[logger.levels.values.info!]!;
  const time = at[symbols.timeSym] as () => string;
  const chindings = at[symbols.chindingsSym] as string;
  const end = at[symbols.endSym] as string;
  const stream = at[symbols.streamSym] as { write(line: string): void } & Internals;
  return (fields, msg) => {
    if (!logger.isLevelEnabled('info')) return;
    if (asJsonTraced.hasSubscribers || stream[symbols.needsMetadataGsym] === true || surrogate.test(msg) || !surrogateFree(fields)) return logger.info(fields, msg);
    const json = JSON.stringify(fields);
    const props = json.length > 2 ? `,${json.slice(1, -1)}` : '';
    stream.write(`${levelPrefix}${time()}${chindings}${props},"msg":${JSON.stringify(msg)}${end}`);
  };
}

function surrogateFree(fields: FlatFields): boolean {
  for (const key in fields) {
    const value = fields[key];
    if (typeof value === 'string' && surrogate.test(value)) return false;
  }
  return true;
}
