import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FlatFields, flatInfoWriter } from './flat-line.js';
import { type DestinationStream, createLogger } from './logger.js';

const keys = ['request_id', 'org', 'method', 'status', 'latency_ms', 'cache', 'cost_usd', 'end_user'];

const records: FlatFields[] = [
  { request_id: 'req_1', org: 'org_a', method: 'POST', status: 200, latency_ms: 3, cache: false, cost_usd: 0.000123, end_user: 'u_1' },
  { request_id: 'req_2', org: undefined, method: 'GET', status: 404, latency_ms: 0, cache: 'exact', cost_usd: undefined, end_user: undefined },
  { request_id: 'quote " back \\ tab \t nl \n ctl \u0001', org: 'é ü 字 🙂', method: 'POST', status: 500, latency_ms: -0, cost_usd: Number.NaN },
  { request_id: 'x'.repeat(150), org: `${'"'.repeat(60)}\\`, status: Number.POSITIVE_INFINITY, cost_usd: 1e21, cache: true },
  { request_id: 'lone \ud800 surrogate', org: 'pair 🙂 and lone \udc00', method: '\u2028\u2029' },
  {},
];

/** The lines `write` gives over every record, through a fresh logger with `base`. */
function linesOf(base: Record<string, unknown> | undefined, write: (logger: ReturnType<typeof createLogger>, fields: FlatFields) => void): string[] {
  const lines: string[] = [];
  const destination: DestinationStream = { write: (line: string) => void lines.push(line) };
  const logger = createLogger({ destination, ...(base ? { base } : {}) }).child({}, { redact: [] });
  for (const fields of records) write(logger, fields);
  return lines;
}

describe('flatInfoWriter', () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date('2026-12-03T15:00:00.123Z'), toFake: ['Date'] }));
  afterEach(() => vi.useRealTimers());

  it('writes the same bytes as logger.info, escapes, odd numbers, undefined fields and lone surrogates included', () => {
    for (const base of [undefined, { service: 'inference', region: 'eu "west"' }]) {
      const expected = linesOf(base, (logger, fields) => logger.info(fields, 'request'));
      let throughPino = 0;
      const flat = linesOf(base, (logger, fields) => {
        const write = flatInfoWriter(logger, keys);
        const info = vi.spyOn(logger, 'info');
        write(fields, 'request');
        throughPino += info.mock.calls.length;
        info.mockRestore();
      });
      expect(flat).toEqual(expected);
      // Only the two records holding surrogates (an emoji, lone ones) go through pino.
      expect(throughPino).toBe(2);
      expect(expected[0]).toContain('"time":"2026-12-03T15:00:00.123Z"');
    }
  });

  it('writes nothing below the logger level, and leaves a redacted key to pino', () => {
    const lines: string[] = [];
    const destination: DestinationStream = { write: (line: string) => void lines.push(line) };
    flatInfoWriter(createLogger({ destination, level: 'warn' }), keys)({ org: 'o' }, 'request');
    expect(lines).toEqual([]);
    const redacting = createLogger({ destination }).child({}, { redact: ['org'] });
    flatInfoWriter(redacting, keys)({ org: 'secret' }, 'request');
    expect(lines[0]).toContain('"org":"[Redacted]"');
  });
});
