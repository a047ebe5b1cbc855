import { fileTooLarge, notFound } from '@svc/core';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { type RouteRegistry, validate } from '@svc/http-kit';
import { decodeFileUpload, fileFormSchema, issueToError } from '@svc/protocol';
import type { FileRecord } from '@svc/db';
import * as v from 'valibot';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { fileObject } from '../files/file-object.js';
import { fileParts } from '../files/file-store.js';
import { fileUpload } from '../files/file-upload.js';
import { readStreamingForm } from '../streaming-form.js';

const tags = ['Files'];
const auth = bearer('inference:chat');
const idParams = v.object({ file_id: v.pipe(v.string(), v.description('The id of a file (`file-...`).')) });
const gone = 'Unknown ids, another organisation’s, deleted and expired files are all a 404 `not_found_error`.';

const pageSize = 'limit must be an integer from 1 to 10000';
const listQuery = v.object({
  purpose: v.optional(v.pipe(v.string(), v.minLength(1, 'purpose must not be empty'))),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,5}$/, pageSize), v.transform(Number), v.minValue(1, pageSize), v.maxValue(10_000, pageSize)), '10000'),
  order: v.optional(v.picklist(['asc', 'desc'], "order must be 'asc' or 'desc'"), 'desc'),
  after: v.optional(v.pipe(v.string(), v.minLength(1, 'after must be the id of a file'))),
});

export const createFileRoute = defineRoute({
  method: 'post',
  path: '/v1/files',
  operationId: 'createFile',
  summary: 'Upload a file',
  description: 'Keeps a file for the organisation (batch inputs are JSONL) until it expires: `SVC_FILES_TTL_DAYS` after its upload, or sooner with `expires_after`. Above `SVC_FILES_MAX_BYTES` the answer is 413 `file_too_large`.',
  tags,
  auth,
  body: { schema: fileFormSchema, contentType: 'multipart/form-data', name: 'CreateFileRequest' },
  responses: { 200: jsonResponse('The `file` object.') },
  errors: [400, 413],
});

export const listFilesRoute = defineRoute({
  method: 'get',
  path: '/v1/files',
  operationId: 'listFiles',
  summary: 'List files',
  description: "The organisation's live files, newest first (`order` `desc`, default) or oldest first, `limit` 1-10000 (10000) after the file `after`, of one `purpose` when given.",
  tags,
  auth,
  query: listQuery,
  responses: { 200: jsonResponse('A `list` of `file` objects with `first_id`, `last_id` and `has_more`.') },
  errors: [400],
});

export const getFileRoute = defineRoute({
  method: 'get',
  path: '/v1/files/{file_id}',
  operationId: 'retrieveFile',
  summary: 'Retrieve a file',
  description: gone,
  tags,
  auth,
  params: idParams,
  responses: { 200: jsonResponse('The `file` object.') },
  errors: [404],
});

export const fileContentRoute = defineRoute({
  method: 'get',
  path: '/v1/files/{file_id}/content',
  operationId: 'downloadFile',
  summary: 'Retrieve the content of a file',
  description: `The file's bytes as uploaded (or as the gateway wrote them: batch output and error files). ${gone}`,
  tags,
  auth,
  params: idParams,
  responses: { 200: { description: 'The bytes.', content: { 'application/octet-stream': null } } },
  errors: [404],
});

export const deleteFileRoute = defineRoute({
  method: 'delete',
  path: '/v1/files/{file_id}',
  operationId: 'deleteFile',
  summary: 'Delete a file',
  description: gone,
  tags,
  auth,
  params: idParams,
  responses: { 200: jsonResponse('`{id, object: "file", deleted: true}`.') },
  errors: [404],
});

const unknownFile = (id: string) => notFound(`No file with id '${id.slice(0, 64)}' in this organisation.`, 'file_id');

/** One page of files in the list shape. */
function filePage(data: FileRecord[], hasMore: boolean) {
  return { object: 'list', data: data.map(fileObject), first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore };
}

/** The parts as a response body, each read when the client takes the previous one. */
function byteStream(parts: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await parts.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await parts.return(undefined);
    },
  });
}

/** `/v1/files`: upload, list, retrieve, download and delete the caller's organisation's files. */
export function registerFiles(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  const { files } = deps;
  const idOf = (param: string | undefined) => validate(idParams, { file_id: param }, issueToError).file_id;

  routes.add(createFileRoute, async (c) => {
    const upload = fileUpload(files, c.get('caller').org.id);
    try {
      const form = await readStreamingForm(c, files.maxBytes, () => fileTooLarge(files.maxBytes), upload.sink);
      return c.json(fileObject(await upload.finish(decodeFileUpload(form, files.maxBytes))));
    } catch (error) {
      await upload.abort();
      throw error;
    }
  });

  routes.add(listFilesRoute, async (c) => {
    const query = validate(listQuery, c.req.query(), issueToError);
    const page = await files.store.list(c.get('caller').org.id, query);
    return c.json(filePage(page.data, page.hasMore));
  });

  routes.add(getFileRoute, async (c) => {
    const id = idOf(c.req.param('file_id'));
    const file = await files.store.get(c.get('caller').org.id, id);
    if (!file) throw unknownFile(id);
    return c.json(fileObject(file));
  });

  routes.add(fileContentRoute, async (c) => {
    const id = idOf(c.req.param('file_id'));
    const file = await files.store.get(c.get('caller').org.id, id);
    if (!file) throw unknownFile(id);
    return c.body(byteStream(fileParts(files.store, file)), 200, { 'content-type': 'application/octet-stream', 'content-length': String(file.bytes) });
  });

  routes.add(deleteFileRoute, async (c) => {
    const id = idOf(c.req.param('file_id'));
    if (!(await files.store.delete(c.get('caller').org.id, id))) throw unknownFile(id);
    return c.json({ id, object: 'file', deleted: true });
  });
}
