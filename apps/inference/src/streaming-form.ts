import { once } from 'node:events';
import type { BusboyFileStream, BusboyInstance } from '@fastify/busboy';
import { type GatewayError, invalidRequest } from '@svc/core';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/** Room for the form's other parts and boundaries around a file at the limit. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;
/** Fields of a form beside its file (`purpose`, `expires_after[...]`, and room for unknown ones to be named). */
const MAX_FIELDS = 32;

const unparsable = () => invalidRequest('The multipart/form-data body could not be parsed.', null);

/**
 * Takes a file part's bytes as they arrive (the stream pauses while it is behind) and resolves
 * once they are kept; the form then holds an empty `File` of the part's name and type in its
 * place. A part cut at the limit ends the upload first: the caller stops the sink.
 */
export type FilePartSink = (stream: BusboyFileStream, filename: string) => Promise<void>;

/** Collects one file part's bytes; the part is added to the form once whole, never when cut at the limit. */
function collectFile(form: FormData, name: string, stream: BusboyFileStream, filename: string, mimeType: string, tooLarge: () => void): void {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('limit', tooLarge);
  stream.on('end', () => {
    if (!stream.truncated) form.append(name, new File(chunks, filename, { type: mimeType }));
    // The File holds its own copy: the parts are let go at once rather than with the parser.
    chunks.length = 0;
  });
}

/** Writes the body into the parser as it arrives, waiting when the parser is behind; stops once `stopped()`. */
async function pump(body: ReadableStream<Uint8Array>, parser: BusboyInstance, stopped: () => boolean): Promise<void> {
  const reader = body.getReader();
  try {
    for (let next = await reader.read(); !next.done && !stopped(); next = await reader.read()) {
      if (!parser.write(next.value)) await once(parser, 'drain');
    }
    if (!stopped()) parser.end();
  } finally {
    if (stopped()) await reader.cancel().catch(() => {});
  }
}

/**
 * A multipart form with one file of at most `maxFileBytes`, parsed as the body arrives: the
 * file's bytes are the only copy held (or, with a `sink`, go to it as they come), and a file past the limit ends the upload with `tooLarge`
 * as soon as it crosses it, whatever length was declared (or none, chunked). `tooLarge` too when
 * the declared length is above a file at the limit; 400 when the body is not multipart, does not
 * parse or holds more than one file.
 */
export async function readStreamingForm(c: Context<AppEnv>, maxFileBytes: number, tooLarge: () => GatewayError, sink?: FilePartSink): Promise<FormData> {
  if (Number(c.req.header('content-length')) > maxFileBytes + FORM_OVERHEAD_BYTES) throw tooLarge();
  const type = c.req.header('content-type');
  const body = c.req.raw.body;
  if (!type?.startsWith('multipart/form-data') || !body) throw invalidRequest('The request body must be multipart/form-data with a file part.', null);
  // Loaded by the first upload (the module loader keeps it): a gateway nobody uploads to does not hold it.
  const { Busboy } = await import('@fastify/busboy');
  let parser: BusboyInstance;
  try {
    parser = Busboy({ headers: { 'content-type': type }, limits: { fileSize: maxFileBytes, files: 1, fields: MAX_FIELDS } });
  } catch {
    throw unparsable();
  }
  const form = new FormData();
  let failure: unknown;
  let kept: Promise<void> = Promise.resolve();
  return new Promise<FormData>((resolve, reject) => {
    const fail = (error: unknown) => {
      failure ??= error;
      reject(failure);
    };
    parser.on('field', (name, value) => form.append(name, value));
    parser.on('file', (name, stream, filename, _encoding, mimeType) => {
      if (!sink) return collectFile(form, name, stream, filename, mimeType, () => fail(tooLarge()));
      stream.on('limit', () => fail(tooLarge()));
      kept = sink(stream, filename).then(() => {
        if (!stream.truncated) form.append(name, new File([], filename, { type: mimeType }));
      });
      kept.catch(fail);
    });
    parser.on('filesLimit', () => fail(invalidRequest('The form must hold one file part.', 'file')));
    parser.on('fieldsLimit', () => fail(invalidRequest(`The form holds more than ${MAX_FIELDS} fields.`, null)));
    parser.on('error', () => fail(unparsable()));
    parser.on('finish', () => kept.then(() => (failure ? reject(failure) : resolve(form)), fail));
    pump(body, parser, () => failure !== undefined).catch(() => fail(unparsable()));
  });
}
