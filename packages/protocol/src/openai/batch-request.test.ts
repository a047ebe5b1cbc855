import { describe, expect, it } from 'vitest';
import { BatchInputReader, MAX_BATCH_LINES, decodeBatchInput } from './batch-request.js';

const line = (customId: string, url = '/v1/chat/completions', extra: Record<string, unknown> = {}) =>
  JSON.stringify({ custom_id: customId, method: 'POST', url, body: { model: 'm', messages: [] }, ...extra });

describe('decodeBatchInput', () => {
  it('reads the lines of a JSONL file in order, skipping blank lines', () => {
    expect(decodeBatchInput(`${line('a')}\n\n${line('b')}\r\n`, '/v1/chat/completions')).toEqual({
      lines: [
        { customId: 'a', body: { model: 'm', messages: [] } },
        { customId: 'b', body: { model: 'm', messages: [] } },
      ],
    });
  });

  it('reports each bad line as OpenAI does, numbered from 1', () => {
    const text = [line('a'), '{not json', line('b', '/v1/embeddings'), line('a'), line('c', '/v1/chat/completions', { method: 'GET' }), JSON.stringify({ custom_id: 'd', method: 'POST', url: '/v1/chat/completions' })].join('\n');
    const decoded = decodeBatchInput(text, '/v1/chat/completions');
    expect('errors' in decoded && decoded.errors.map((e) => [e.line, e.code, e.param])).toEqual([
      [2, 'invalid_json_line', null],
      [3, 'mismatched_endpoint', 'url'],
      [4, 'duplicate_custom_id', 'custom_id'],
      [5, 'invalid_request', 'method'],
      [6, 'invalid_request', 'body'],
    ]);
  });

  it('refuses a body holding U+0000 in a string or a key, at any depth (the batch store cannot keep it)', () => {
    const nul = '\u0000';
    const bodies = [{ model: 'm', messages: [{ role: 'user', content: `a${nul}b` }] }, { model: 'm', messages: [], metadata: { [`k${nul}`]: 'v' } }, { model: 'm', messages: [[[[`${nul}`]]]] }];
    const text = bodies.map((body, i) => JSON.stringify({ custom_id: `n${i}`, method: 'POST', url: '/v1/chat/completions', body })).join('\n');
    const decoded = decodeBatchInput(`${line('ok')}\n${text}`, '/v1/chat/completions');
    expect('errors' in decoded && decoded.errors.map((e) => [e.line, e.code, e.param])).toEqual([
      [2, 'invalid_string', 'body'],
      [3, 'invalid_string', 'body'],
      [4, 'invalid_string', 'body'],
    ]);
  });

  it('refuses an empty file', () => {
    expect(decodeBatchInput('\n \n', '/v1/embeddings')).toEqual({ errors: [{ code: 'empty_file', message: 'The input file holds no request.', param: null, line: null }] });
  });
});

describe('BatchInputReader', () => {
  const valid = (id: number) => JSON.stringify({ custom_id: `c${id}`, method: 'POST', url: '/v1/embeddings', body: { input: 'x' } });

  it('stops asking for lines at 100 problems and reports them as decodeBatchInput does', () => {
    const reader = new BatchInputReader('/v1/embeddings');
    let read = 0;
    for (let number = 1; number <= 500 && reader.push('not json', number); number++) read = number;
    expect(read).toBe(99);
    const result = reader.result();
    expect('errors' in result && result.errors).toHaveLength(100);
  });

  it('keeps no line past the limit but still checks the rest: a later problem is reported, else too_many_requests', () => {
    const over = new BatchInputReader('/v1/embeddings');
    for (let number = 1; number <= MAX_BATCH_LINES + 1; number++) over.push(valid(number), number);
    expect(over.result()).toEqual({ errors: [expect.objectContaining({ code: 'too_many_requests' })] });
    over.push('{', MAX_BATCH_LINES + 2);
    expect(over.result()).toEqual({ errors: [expect.objectContaining({ code: 'invalid_json_line', line: MAX_BATCH_LINES + 2 })] });
  });
});
