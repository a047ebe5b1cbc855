import type { BusboyFileStream } from '@fastify/busboy';
import type { FileRecord } from '@svc/db';
import type { DecodedFileUpload } from '@svc/protocol';
import type { FilePartSink } from '../streaming-form.js';
import { type FileSettings, type FileWriter, openFileWriter } from './file-store.js';

/** An upload's file part written as it arrives; `finish` once its form is valid, else `abort`. */
export interface FileUpload {
  /** For {@link readStreamingForm}: writes the part into a new file, a part at a time. */
  sink: FilePartSink;
  /** Makes the file whole with the form's fields, and serves it. */
  finish(form: DecodedFileUpload): Promise<FileRecord>;
  /** Stops taking the part and removes what was written (a refused, cut or invalid upload). */
  abort(): Promise<void>;
}

/** `POST /v1/files`' upload for the organisation: the file part goes to the store as it comes. */
export function fileUpload(files: FileSettings, orgId: string): FileUpload {
  let writer: FileWriter | undefined;
  let stream: BusboyFileStream | undefined;
  let taking: Promise<void> = Promise.resolve();
  const take = async (part: BusboyFileStream, filename: string) => {
    writer = await openFileWriter(files, { orgId, filename: filename || 'file', purpose: 'uploading' });
    for await (const bytes of part) await writer.write(bytes as Buffer);
  };
  return {
    sink(part, filename) {
      stream = part;
      taking = take(part, filename);
      return taking;
    },
    async finish(form) {
      if (!writer) throw new Error('the form was decoded without its file part');
      return writer.finish({ purpose: form.purpose, expiresAfterSeconds: form.expiresAfterSeconds });
    },
    async abort() {
      stream?.destroy();
      await taking.catch(() => {});
      await writer?.abort();
    },
  };
}
