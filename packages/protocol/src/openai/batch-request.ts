import * as v from 'valibot';
import { issuePath } from '../shared/issue-to-error.js';

/** The endpoints a batch's lines may call. */
export const batchEndpoints = ['/v1/chat/completions', '/v1/embeddings', '/v1/responses'] as const;
export type BatchEndpoint = (typeof batchEndpoints)[number];

/** Most lines one batch takes (OpenAI's limit). */
export const MAX_BATCH_LINES = 50_000;

const metadataMessage = 'metadata must be at most 16 string values of at most 512 characters, under keys of at most 64';

/** The body of `POST /v1/batches`. */
export const createBatchRequestSchema = v.object({
  input_file_id: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty')),
  endpoint: v.picklist(batchEndpoints, `must be one of ${batchEndpoints.join(', ')} (other endpoints are not built for batches)`),
  completion_window: v.literal('24h', "must be '24h'"),
  metadata: v.optional(
    v.nullable(
      v.pipe(
        v.record(v.pipe(v.string(), v.maxLength(64, metadataMessage)), v.pipe(v.string(metadataMessage), v.maxLength(512, metadataMessage))),
        v.check((record) => Object.keys(record).length <= 16, metadataMessage),
      ),
    ),
  ),
});
export type CreateBatchRequest = v.InferOutput<typeof createBatchRequestSchema>;

/** One request of a batch's input file. */
const inputLineSchema = v.object({
  custom_id: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(512, 'must be at most 512 characters')),
  method: v.literal('POST', "must be 'POST'"),
  url: v.string('must be a string'),
  body: v.record(v.string(), v.unknown(), 'must be a JSON object'),
});

/** A problem of the input file, as OpenAI reports it in a batch's `errors.data` (`line` counts from 1). */
export interface BatchInputError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

/** A valid line: its `custom_id` and request body. */
export interface BatchInputLine {
  customId: string;
  body: Record<string, unknown>;
}

/** Whether a parsed JSON value holds U+0000 in a string or key (PostgreSQL's JSONB cannot); iterative, so any depth is safe. */
function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return true;
    } else if (Array.isArray(node)) for (const item of node) stack.push(item);
    else if (typeof node === 'object' && node !== null) for (const [key, child] of Object.entries(node)) stack.push(key, child);
  }
  return false;
}

/** The problem of one line, or its request. */
function decodeLine(text: string, line: number, endpoint: BatchEndpoint): BatchInputLine | BatchInputError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { code: 'invalid_json_line', message: 'This line is not valid JSON.', param: null, line };
  }
  const parsed = v.safeParse(inputLineSchema, json, { abortEarly: true });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const param = issuePath(issue);
    return { code: 'invalid_request', message: `${param ?? 'The line'} ${issue.message}.`, param, line };
  }
  if (parsed.output.url !== endpoint) return { code: 'mismatched_endpoint', message: `The url must be the batch's endpoint, ${endpoint}.`, param: 'url', line };
  if (holdsNul(parsed.output.body)) return { code: 'invalid_string', message: 'The body holds the NUL character (U+0000), which the batch store cannot keep.', param: 'body', line };
  return { customId: parsed.output.custom_id, body: parsed.output.body };
}

/** The outcome of reading a batch input file: its requests, or what is wrong with it. */
export type BatchInputResult = { lines: BatchInputLine[] } | { errors: BatchInputError[] };

/** Most problems of an input file listed (reading stops at them). */
const MAX_LISTED_ERRORS = 100;

/**
 * Reads a batch input file (JSONL; blank lines skipped) a line at a time, as it streams: every
 * line JSON with `custom_id` (unique), `method` POST, `url` the batch's endpoint and a `body`
 * object; at least one line, at most {@link MAX_BATCH_LINES} (lines past it are checked, not
 * kept). Bodies are validated when their line runs (a bad body is that line's 400, as the
 * endpoint answers it).
 */
export class BatchInputReader {
  private readonly lines: BatchInputLine[] = [];
  private readonly errors: BatchInputError[] = [];
  private readonly seen = new Set<string>();
  private count = 0;

  constructor(private readonly endpoint: BatchEndpoint) {}

  /** Reads line `number` (from 1); false once enough problems are listed (the rest need not be read). */
  push(raw: string, number: number): boolean {
    if (raw.trim() === '') return true;
    const decoded = decodeLine(raw, number, this.endpoint);
    if ('code' in decoded) this.errors.push(decoded);
    else if (this.seen.has(decoded.customId)) this.errors.push({ code: 'duplicate_custom_id', message: `The custom_id '${decoded.customId.slice(0, 64)}' is used by an earlier line.`, param: 'custom_id', line: number });
    else {
      this.seen.add(decoded.customId);
      if (++this.count <= MAX_BATCH_LINES) this.lines.push(decoded);
    }
    return this.errors.length < MAX_LISTED_ERRORS;
  }

  result(): BatchInputResult {
    if (this.errors.length > 0) return { errors: this.errors };
    if (this.count === 0) return { errors: [{ code: 'empty_file', message: 'The input file holds no request.', param: null, line: null }] };
    if (this.count > MAX_BATCH_LINES) return { errors: [{ code: 'too_many_requests', message: `A batch holds at most ${MAX_BATCH_LINES} requests.`, param: null, line: null }] };
    return { lines: this.lines };
  }
}

/** A whole batch input file read by {@link BatchInputReader}. */
export function decodeBatchInput(text: string, endpoint: BatchEndpoint): BatchInputResult {
  const reader = new BatchInputReader(endpoint);
  for (const [index, raw] of text.split('\n').entries()) if (!reader.push(raw, index + 1)) break;
  return reader.result();
}
