import { crc32, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './server.js';
import { type ErrorBody, post, readJson } from './test-client.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream();
});
afterAll(() => mock.close());

interface Images {
  created: number;
  data: { url?: string; b64_json?: string; revised_prompt?: string }[];
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number };
  output_format?: string;
}

/** Walks a PNG's chunks, checking each CRC: its width, height and raw pixel rows. */
function readPng(bytes: Buffer): { width: number; height: number; pixels: Buffer } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  let header: Buffer | undefined;
  const data: Buffer[] = [];
  for (;;) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    expect(bytes.readUInt32BE(offset + 8 + length)).toBe(crc32(bytes.subarray(offset + 4, offset + 8 + length)));
    if (type === 'IHDR') header = body;
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
    if (type === 'IEND') break;
  }
  expect(header).toBeDefined();
  return { width: header!.readUInt32BE(0), height: header!.readUInt32BE(4), pixels: inflateSync(Buffer.concat(data)) };
}

const url = () => `${mock.url}/v1/images/generations`;

describe('POST /v1/images/generations', () => {
  it('draws one real PNG as base64 with a revised prompt for dall-e-3', async () => {
    const body = await readJson<Images>(await post(url(), { model: 'dall-e-3', prompt: 'a red fox', response_format: 'b64_json', size: '1792x1024', quality: 'hd', style: 'natural' }));
    expect(body.data).toHaveLength(1);
    expect(body.data[0]?.revised_prompt).toContain('a red fox');
    const png = readPng(Buffer.from(body.data[0]!.b64_json!, 'base64'));
    expect(png).toMatchObject({ width: 8, height: 8 });
    expect(png.pixels.length).toBe(8 * (1 + 8 * 3));
  });

  it('answers n URLs it serves as image/png for dall-e-2, one colour per image', async () => {
    const body = await readJson<Images>(await post(url(), { model: 'dall-e-2', prompt: 'cats', n: 3, size: '256x256' }));
    expect(body.data).toHaveLength(3);
    expect(body.data[0]?.revised_prompt).toBeUndefined();
    const urls = body.data.map((image) => image.url!);
    expect(new Set(urls).size).toBe(3);
    const res = await fetch(urls[0]!);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(readPng(Buffer.from(await res.arrayBuffer())).width).toBe(8);
  });

  it('answers gpt-image-1 in base64 with its token usage, and refuses response_format as the real API does', async () => {
    const body = await readJson<Images>(await post(url(), { model: 'gpt-image-1', prompt: 'a sticker', n: 2, quality: 'low', size: '1024x1536' }));
    expect(body.data.every((image) => image.b64_json !== undefined)).toBe(true);
    expect(body.usage).toMatchObject({ output_tokens: 2 * 408 });
    expect(body.output_format).toBe('png');
    expect((await post(url(), { model: 'gpt-image-1', prompt: 'x', response_format: 'b64_json' })).status).toBe(400);
  });

  it.each([
    [{ model: 'dall-e-3', prompt: 'x', n: 2 }],
    [{ model: 'dall-e-3', prompt: 'x', size: '256x256' }],
    [{ model: 'dall-e-2', prompt: 'x', style: 'vivid' }],
    [{ model: 'dall-e-2', prompt: 'x', n: 11 }],
    [{ model: 'dall-e-3' }],
  ])('refuses %j with 400', async (request) => {
    const res = await post(url(), request);
    expect(res.status).toBe(400);
    expect((await readJson<ErrorBody>(res)).error.type).toBe('invalid_request_error');
  });

  it('refuses a prompt with the word forbidden as its safety system would', async () => {
    const dalle = await post(url(), { model: 'dall-e-3', prompt: 'something forbidden' });
    expect(dalle.status).toBe(400);
    expect((await readJson<ErrorBody>(dalle)).error.code).toBe('content_policy_violation');
    const gpt = await post(url(), { model: 'gpt-image-1', prompt: 'Forbidden things' });
    expect((await readJson<ErrorBody>(gpt)).error.code).toBe('moderation_blocked');
  });

  it('applies the fault table', async () => {
    const res = await post(url(), { model: 'dall-e-3', prompt: 'x' }, { 'x-mock-fault': '429' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
  });
});
