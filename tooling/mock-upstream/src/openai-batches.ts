import { randomBytes } from 'node:crypto';
import { type JsonAnswer, jsonAnswer } from './answer.js';
import { type AnswerLine, type BatchCall, type BatchRequest, BatchRun } from './batch-run.js';
import { invalidRequest } from './faults.js';
import { asRecord, asString } from './json.js';

/** The endpoints OpenAI's Batch API runs lines of (the mock answers them as its interactive routes). */
const ENDPOINTS = new Set(['/v1/chat/completions', '/v1/embeddings', '/v1/responses']);

interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  bytes: Buffer;
  createdAt: number;
}

interface OpenAIBatch {
  run: BatchRun;
  endpoint: string;
  inputFileId: string;
  metadata: unknown;
  outputFileId: string | null;
  errorFileId: string | null;
}

const BATCH_PATH = /^\/v1\/batches\/([^/]+)(\/cancel)?$/;
const FILE_PATH = /^\/v1\/files\/([^/]+)(\/content)?$/;
const newId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;
const json = (status: number, body: unknown) => jsonAnswer(status, JSON.stringify(body));
const missing = (what: string, id: string) => json(404, { error: { message: `No such ${what}: '${id}'`, type: 'invalid_request_error', param: null, code: null } });

/**
 * OpenAI's Files (`POST /v1/files`, `GET /v1/files/{id}[/content]`) and Batch API (`POST
 * /v1/batches`, `GET /v1/batches[/{id}]`, `POST /v1/batches/{id}/cancel`), in memory, in the wire
 * shapes of platform.openai.com/docs/api-reference/batch and /files. A batch's lines are answered
 * by the mock's own routes as it is retrieved; its output and error files (the `{id, custom_id,
 * response: {status_code, request_id, body}, error}` lines) are written when it ends. A batch
 * belongs to the key that created it (its project upstream): another key sees a 404 and lists none.
 */
export class OpenAIBatches {
  private readonly files = new Map<string, StoredFile>();
  private readonly batches = new Map<string, OpenAIBatch>();

  constructor(
    private readonly polls: () => number,
    private readonly answerLine: AnswerLine,
  ) {}

  static handles(path: string): boolean {
    return path === '/v1/files' || path === '/v1/batches' || BATCH_PATH.test(path) || FILE_PATH.test(path);
  }

  async handle({ method, path, raw, owner, query }: BatchCall, contentType: string): Promise<JsonAnswer> {
    if (method === 'POST' && path === '/v1/files') return this.upload(raw, contentType);
    if (method === 'POST' && path === '/v1/batches') return this.create(asRecord(parseJson(raw)) ?? {}, owner);
    if (method === 'GET' && path === '/v1/batches') return this.list(owner, query ?? new URLSearchParams());
    const file = FILE_PATH.exec(path);
    if (method === 'GET' && file) return this.readFile(file[1] ?? '', file[2] !== undefined);
    const batch = BATCH_PATH.exec(path);
    const stored = batch ? this.batches.get(batch[1] ?? '') : undefined;
    const found = stored?.run.owner === owner ? stored : undefined;
    if (!batch || !found) return missing('batch', batch?.[1] ?? path);
    if (method === 'POST' && batch[2]) found.run.cancel();
    else if (method === 'GET') this.advance(found);
    return json(200, this.object(found));
  }

  private async upload(raw: Buffer, contentType: string): Promise<JsonAnswer> {
    const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData().catch(() => undefined);
    const file = form?.get('file');
    const purpose = form?.get('purpose');
    if (!form || typeof file === 'string' || !file || typeof purpose !== 'string') return invalidRequest('openai', "'file' and 'purpose' are required", 'files');
    const stored = { id: newId('file-'), filename: file.name, purpose, bytes: Buffer.from(await file.arrayBuffer()), createdAt: Math.floor(Date.now() / 1000) };
    this.files.set(stored.id, stored);
    return json(200, fileObject(stored));
  }

  private readFile(id: string, content: boolean): JsonAnswer {
    const file = this.files.get(id);
    if (!file) return missing('file', id);
    return content ? jsonAnswer(200, file.bytes.toString('utf8'), { 'content-type': 'application/jsonl' }) : json(200, fileObject(file));
  }

  /** `GET /v1/batches?limit=&after=`: the key's batches, newest first, a page (`limit` 1-100, default 20) after the batch `after`. */
  private list(owner: string, query: URLSearchParams): JsonAnswer {
    const own = [...this.batches.values()].filter((batch) => batch.run.owner === owner).reverse();
    const after = query.get('after');
    const start = after === null ? 0 : own.findIndex((batch) => batch.run.id === after) + 1;
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 20) || 20));
    const page = own.slice(start, start + limit).map((batch) => this.object(batch));
    return json(200, { object: 'list', data: page, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null, has_more: start + limit < own.length });
  }

  private create(body: Record<string, unknown>, owner: string): JsonAnswer {
    const endpoint = asString(body['endpoint']) ?? '';
    const input = this.files.get(asString(body['input_file_id']) ?? '');
    if (!ENDPOINTS.has(endpoint)) return invalidRequest('openai', `Invalid endpoint '${endpoint}'`, 'batches');
    if (input?.purpose !== 'batch') return invalidRequest('openai', "'input_file_id' must name a file with purpose 'batch'", 'batches');
    if (body['completion_window'] !== '24h') return invalidRequest('openai', "'completion_window' must be '24h'", 'batches');
    const requests: BatchRequest[] = [];
    for (const line of input.bytes.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      const record = asRecord(parseJson(Buffer.from(line)));
      const custom = asString(record?.['custom_id']);
      const lineBody = asRecord(record?.['body']);
      if (!custom || !lineBody || record?.['url'] !== endpoint) return invalidRequest('openai', 'Each line needs custom_id, method, url (the endpoint) and body', 'batches');
      requests.push({ customId: custom, url: endpoint, body: lineBody });
    }
    const batch: OpenAIBatch = { run: new BatchRun(newId('batch_'), requests, owner), endpoint, inputFileId: input.id, metadata: body['metadata'] ?? null, outputFileId: null, errorFileId: null };
    this.batches.set(batch.run.id, batch);
    return json(200, this.object(batch));
  }

  /** A retrieve: the next share of lines; the output and error files once it ended. */
  private advance(batch: OpenAIBatch): void {
    batch.run.advance(this.polls(), this.answerLine);
    if (batch.run.state !== 'ended' || batch.outputFileId !== null || batch.errorFileId !== null) return;
    const lines = batch.run.requests.flatMap((request, index) => {
      const answer = batch.run.answers[index];
      if (!answer) return [];
      const line = { id: newId('batch_req_'), custom_id: request.customId, response: { status_code: answer.status, request_id: answer.requestId, body: answer.body }, error: null };
      return [{ ok: answer.status < 300, text: `${JSON.stringify(line)}\n` }];
    });
    const write = (ok: boolean) => {
      const text = lines.filter((line) => line.ok === ok).map((line) => line.text).join('');
      if (text === '') return null;
      const file = { id: newId('file-'), filename: `${batch.run.id}_${ok ? 'output' : 'error'}.jsonl`, purpose: 'batch_output', bytes: Buffer.from(text), createdAt: Math.floor(Date.now() / 1000) };
      this.files.set(file.id, file);
      return file.id;
    };
    batch.outputFileId = write(true);
    batch.errorFileId = write(false);
  }

  private object(batch: OpenAIBatch) {
    const { run } = batch;
    const { ran, ok } = run.counts();
    const ended = run.state === 'ended';
    const status = ended ? (run.cancelled ? 'cancelled' : 'completed') : run.state === 'cancelling' ? 'cancelling' : run.started ? 'in_progress' : 'validating';
    return {
      id: run.id,
      object: 'batch',
      endpoint: batch.endpoint,
      errors: null,
      input_file_id: batch.inputFileId,
      completion_window: '24h',
      status,
      output_file_id: batch.outputFileId,
      error_file_id: batch.errorFileId,
      created_at: run.createdAt,
      in_progress_at: run.started ? run.createdAt : null,
      expires_at: run.createdAt + 86_400,
      finalizing_at: ended && !run.cancelled ? run.endedAt : null,
      completed_at: ended && !run.cancelled ? run.endedAt : null,
      failed_at: null,
      expired_at: null,
      cancelling_at: run.cancelledAt ?? null,
      cancelled_at: ended && run.cancelled ? run.endedAt : null,
      request_counts: { total: run.requests.length, completed: ok, failed: ran - ok },
      metadata: batch.metadata,
    };
  }
}

function fileObject(file: StoredFile) {
  return { id: file.id, object: 'file', bytes: file.bytes.length, created_at: file.createdAt, filename: file.filename, purpose: file.purpose, status: 'processed', status_details: null };
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
