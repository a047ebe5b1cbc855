import { createHash } from 'node:crypto';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

const MAX_BYTES = 3 * 1024 * 1024;
const DAY_MS = 86_400_000;
const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const jsonl = (lines: object[]) => `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;

describe('openai SDK client.files against the gateway', () => {
  let gateway: Gateway;
  let client: OpenAI;
  let stranger: OpenAI;

  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1', SVC_FILES_MAX_BYTES: String(MAX_BYTES), SVC_FILES_TTL_DAYS: '7' });
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
    const org = await gateway.runtime.db.orgs.create({ name: `files-e2e-${Date.now()}` });
    const { secret } = await gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    stranger = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: secret, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('uploads, retrieves, downloads and deletes a file in the OpenAI file shape', async () => {
    const text = jsonl([{ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { model: 'mock/mock-value', messages: [] } }]);
    const before = Math.floor(Date.now() / 1000);
    const file = await client.files.create({ file: await toFile(Buffer.from(text), 'input.jsonl'), purpose: 'batch' });
    expect(file).toEqual({
      id: expect.stringMatching(/^file-/),
      object: 'file',
      bytes: Buffer.byteLength(text),
      created_at: expect.any(Number),
      expires_at: file.created_at + 7 * 86_400,
      filename: 'input.jsonl',
      purpose: 'batch',
      status: 'processed',
      status_details: null,
    });
    expect(file.created_at).toBeGreaterThanOrEqual(before);
    expect(await client.files.retrieve(file.id)).toEqual(file);
    expect(await (await client.files.content(file.id)).text()).toBe(text);
    expect(await client.files.delete(file.id)).toEqual({ id: file.id, object: 'file', deleted: true });
    await expect(client.files.retrieve(file.id)).rejects.toMatchObject({ status: 404 });
    await expect(client.files.content(file.id)).rejects.toMatchObject({ status: 404 });
  });

  it('keeps a file of several parts and serves it back byte for byte, its length declared', async () => {
    const bytes = Uint8Array.from({ length: 2.5 * 1024 * 1024 }, (_, i) => (i * 7 + (i >> 20)) % 256);
    const file = await client.files.create({ file: await toFile(Buffer.from(bytes), 'parts.bin'), purpose: 'user_data' });
    expect(file.bytes).toBe(bytes.byteLength);
    const content = await client.files.content(file.id);
    expect(content.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(digest(new Uint8Array(await content.arrayBuffer()))).toBe(digest(bytes));
  });

  it('shortens the life of a file with expires_after, never beyond the retention period', async () => {
    const file = await client.files.create({ file: await toFile(Buffer.from('x'), 'x.txt'), purpose: 'user_data', expires_after: { anchor: 'created_at', seconds: 3600 } });
    expect(file.expires_at).toBe(file.created_at + 3600);
    await expect(client.files.create({ file: await toFile(Buffer.from('x'), 'x.txt'), purpose: 'user_data', expires_after: { anchor: 'created_at', seconds: 60 } })).rejects.toMatchObject({
      status: 400,
      error: { param: 'expires_after[seconds]' },
    });
  });

  it('lists the organisation’s files by pages, newest first or oldest first, by purpose', async () => {
    const ids: string[] = [];
    for (const [i, purpose] of ['vision', 'evals', 'vision'].entries()) {
      ids.push((await client.files.create({ file: await toFile(Buffer.from(`file ${i}`), `f${i}.txt`), purpose: purpose as 'vision' })).id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const page = await client.files.list({ purpose: 'vision', limit: 1 });
    expect(page.data.map((f) => f.id)).toEqual([ids[2]]);
    expect(page.has_more).toBe(true);
    const all: string[] = [];
    for await (const file of client.files.list({ purpose: 'vision', limit: 1, order: 'asc' })) all.push(file.id);
    expect(all).toEqual([ids[0], ids[2]]);
    expect((await stranger.files.list()).data).toEqual([]);
  });

  it('keeps each organisation’s files to itself', async () => {
    const file = await client.files.create({ file: await toFile(Buffer.from('secret'), 's.txt'), purpose: 'user_data' });
    await expect(stranger.files.retrieve(file.id)).rejects.toMatchObject({ status: 404, error: { type: 'not_found_error' } });
    await expect(stranger.files.content(file.id)).rejects.toMatchObject({ status: 404 });
    await expect(stranger.files.delete(file.id)).rejects.toMatchObject({ status: 404 });
    expect((await client.files.retrieve(file.id)).id).toBe(file.id);
  });

  it('refuses a file above SVC_FILES_MAX_BYTES with 413 file_too_large, and an unknown purpose with 400', async () => {
    const big = client.files.create({ file: await toFile(Buffer.alloc(MAX_BYTES + 1, 'a'), 'big.txt'), purpose: 'batch' });
    await expect(big).rejects.toMatchObject({ status: 413, error: { type: 'invalid_request_error', code: 'file_too_large', param: 'file' } });
    const response = await fetch(`${gateway.inferenceUrl}/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}` },
      body: (() => {
        const form = new FormData();
        // The file part comes first and is written before the purpose is read: it is removed.
        form.set('file', new Blob([Buffer.alloc(1.5 * 1024 * 1024, 'x')]), 'x.txt');
        form.set('purpose', 'fine-tune-results');
        return form;
      })(),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'purpose' } });
  });

  it('leaves nothing of a refused upload in the store: every file row is one a client can list', async () => {
    const listed = (await client.files.list({ limit: 10_000 })).data.length + (await stranger.files.list({ limit: 10_000 })).data.length;
    // Far in the future every row is swept, an upload never completed included.
    expect(await gateway.runtime.db.files.deleteExpired(new Date(Date.now() + 400 * DAY_MS))).toBe(listed);
  });
});
