import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines };
}

describe('createLogger', () => {
  it('writes one JSON object per line with the level label, time and message', () => {
    const out = capture();
    const logger = createLogger({ destination: out.stream, base: { service: 'inference' } });
    logger.info({ port: 8080 }, 'listening');
    const [line] = out.lines();
    expect(line).toMatchObject({ level: 'info', service: 'inference', port: 8080, msg: 'listening' });
    expect(new Date(String(line!['time'])).toISOString()).toBe(line!['time']);
  });

  it('adds child bindings such as the request id to every line', () => {
    const out = capture();
    const logger = createLogger({ destination: out.stream, base: {} });
    const request = logger.child({ request_id: 'req_123' });
    request.warn('slow upstream');
    request.error({ status: 502 }, 'upstream failed');
    expect(out.lines()).toEqual([
      expect.objectContaining({ level: 'warn', request_id: 'req_123', msg: 'slow upstream' }),
      expect.objectContaining({ level: 'error', request_id: 'req_123', status: 502, msg: 'upstream failed' }),
    ]);
  });

  it('drops lines below the level', () => {
    const out = capture();
    const logger = createLogger({ destination: out.stream, level: 'warn' });
    logger.info('hidden');
    logger.debug('hidden');
    logger.warn('shown');
    expect(out.lines().map((line) => line['msg'])).toEqual(['shown']);
  });

  it('redacts credentials', () => {
    const out = capture();
    const logger = createLogger({ destination: out.stream });
    logger.info({ req: { headers: { authorization: 'Bearer sk-secret', 'x-api-key': 'sk-other' } }, api_key: 'sk-3' }, 'in');
    const text = JSON.stringify(out.lines());
    expect(text).not.toContain('sk-');
    expect(text).toContain('[Redacted]');
  });
});
