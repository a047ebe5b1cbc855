import { GatewayError, fileTooLarge } from '@svc/core';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './env.js';
import { readStreamingForm } from './streaming-form.js';

const LIMIT = 64 * 1024;

function formApp() {
  const app = new Hono<AppEnv>();
  app.post('/upload', async (c) => {
    const form = await readStreamingForm(c, LIMIT, () => fileTooLarge(LIMIT));
    const file = form.get('file');
    return c.json({ purpose: form.get('purpose'), name: file instanceof File ? file.name : null, size: file instanceof File ? file.size : null });
  });
  app.onError((error, c) => c.json({ code: error instanceof GatewayError ? error.code : 'other', param: error instanceof GatewayError ? error.param : null }, error instanceof GatewayError ? (error.status as 400) : 500));
  return app;
}

const boundary = 'svcboundary';
const head = (name: string, filename?: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: application/jsonl\r\n' : ''}\r\n`;
const multipart = `multipart/form-data; boundary=${boundary}`;

/** A chunked multipart body (no length declared) whose file part is `fileBytes` long, counting the bytes the server pulled. */
function chunkedUpload(fileBytes: number) {
  const encoder = new TextEncoder();
  const chunk = new Uint8Array(16 * 1024).fill(120);
  const pulled = { bytes: 0 };
  let sent = 0;
  let stage = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stage === 0) controller.enqueue(encoder.encode(`${head('purpose')}batch\r\n${head('file', 'big.jsonl')}`));
      else if (sent < fileBytes) {
        sent += chunk.length;
        pulled.bytes += chunk.length;
        controller.enqueue(chunk);
        return;
      } else if (stage === 1) controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
      else controller.close();
      stage++;
    },
  });
  return { body, pulled };
}

describe('readStreamingForm', () => {
  it('reads the fields and the file of a form as it arrives', async () => {
    const form = new FormData();
    form.set('purpose', 'batch');
    form.set('file', new Blob(['{"a":1}\n']), 'input.jsonl');
    const response = await formApp().request('/upload', { method: 'POST', body: form });
    expect(await response.json()).toEqual({ purpose: 'batch', name: 'input.jsonl', size: 8 });
  });

  it('takes a chunked upload just under the limit', async () => {
    const { body } = chunkedUpload(LIMIT - 16 * 1024);
    const response = await formApp().request('/upload', { method: 'POST', body, headers: { 'content-type': multipart }, duplex: 'half' } as RequestInit);
    expect(await response.json()).toMatchObject({ purpose: 'batch', size: LIMIT - 16 * 1024 });
  });

  it('ends a chunked upload with 413 file_too_large as soon as its file passes the limit, without reading the rest', async () => {
    const { body, pulled } = chunkedUpload(100 * LIMIT);
    const response = await formApp().request('/upload', { method: 'POST', body, headers: { 'content-type': multipart }, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'file_too_large', param: 'file' });
    expect(pulled.bytes).toBeLessThan(4 * LIMIT);
  });

  it('refuses a body that is not multipart, or a form of two files, with 400', async () => {
    const app = formApp();
    expect((await app.request('/upload', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    const form = new FormData();
    form.set('purpose', 'batch');
    form.append('file', new Blob(['a']), 'a.jsonl');
    form.append('file', new Blob(['b']), 'b.jsonl');
    const two = await app.request('/upload', { method: 'POST', body: form });
    expect(two.status).toBe(400);
    expect(await two.json()).toMatchObject({ code: 'validation_error', param: 'file' });
  });
});
