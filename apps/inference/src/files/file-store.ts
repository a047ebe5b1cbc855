import { fileId } from '@svc/core';
import { FILE_PART_BYTES, type FileRecord, type FileRepository } from '@svc/db';

const DAY_MS = 86_400_000;

/** The stored files, the largest upload, and how long a file lives. */
export interface FileSettings {
  store: FileRepository;
  /** SVC_FILES_MAX_BYTES: the largest file `POST /v1/files` takes (413 above). */
  maxBytes: number;
  /** SVC_FILES_TTL_DAYS: a file expires this many days after its creation, unless asked sooner. */
  ttlDays: number;
}

/** A file to write: the organisation's, under a name and purpose, with a shorter life when asked. */
export interface FileToWrite {
  orgId: string;
  filename: string;
  purpose: string;
  expiresAfterSeconds?: number | undefined;
}

/** What a writer learns only at the end (an upload's form fields may follow its file part). */
export type FileEnding = Partial<Pick<FileToWrite, 'purpose' | 'expiresAfterSeconds'>>;

/**
 * A file written as its bytes come, a part of {@link FILE_PART_BYTES} at a time: at most one part
 * is held. Nothing serves it until `finish`; `abort` removes it and what was written.
 */
export interface FileWriter {
  readonly id: string;
  /** Takes the next bytes; resolves once any part they completed is kept. */
  write(bytes: Uint8Array): Promise<void>;
  finish(ending?: FileEnding): Promise<FileRecord>;
  abort(): Promise<void>;
}

/** When a file created at `createdAt` expires: `expiresAfterSeconds` later, at most the retention period. */
function expiryOf(files: FileSettings, createdAt: Date, expiresAfterSeconds: number | undefined): Date {
  const retentionMs = files.ttlDays * DAY_MS;
  const lifeMs = expiresAfterSeconds === undefined ? retentionMs : Math.min(expiresAfterSeconds * 1000, retentionMs);
  return new Date(createdAt.getTime() + lifeMs);
}

/** Begins a file under a new id and answers its writer. */
export async function openFileWriter(files: FileSettings, file: FileToWrite, now = new Date()): Promise<FileWriter> {
  const { orgId, filename, purpose } = file;
  const id = fileId();
  await files.store.begin({ id, orgId, filename, purpose, createdAt: now, expiresAt: expiryOf(files, now, file.expiresAfterSeconds) });
  let part = 0;
  let total = 0;
  let buffer = new Uint8Array(FILE_PART_BYTES);
  let filled = 0;
  const flush = async () => {
    // A part of its own length: a view of a larger buffer would cross the store thread whole.
    const bytes = filled === FILE_PART_BYTES ? buffer : buffer.slice(0, filled);
    buffer = new Uint8Array(FILE_PART_BYTES);
    filled = 0;
    await files.store.writePart(orgId, id, part++, bytes);
  };
  return {
    id,
    async write(bytes) {
      for (let offset = 0; offset < bytes.byteLength; ) {
        const taken = Math.min(FILE_PART_BYTES - filled, bytes.byteLength - offset);
        buffer.set(bytes.subarray(offset, offset + taken), filled);
        filled += taken;
        offset += taken;
        total += taken;
        if (filled === FILE_PART_BYTES) await flush();
      }
    },
    async finish(ending = {}) {
      if (filled > 0) await flush();
      const expiresAt = 'expiresAfterSeconds' in ending ? expiryOf(files, now, ending.expiresAfterSeconds) : undefined;
      const kept = await files.store.complete(orgId, id, { bytes: total, purpose: ending.purpose, expiresAt });
      if (!kept) throw new Error(`file ${id} was removed while it was written`);
      return kept;
    },
    abort: () => files.store.discard(orgId, id),
  };
}

/**
 * The bytes of a stored file, part by part as the store reads them; throws when they end short
 * of `file.bytes` (the file was deleted or expired while read).
 */
export async function* fileParts(store: FileRepository, file: FileRecord): AsyncGenerator<Uint8Array> {
  let read = 0;
  for (let part = 0; ; part++) {
    const bytes = await store.part(file.orgId, file.id, part);
    if (!bytes) break;
    read += bytes.byteLength;
    yield bytes;
  }
  if (read !== file.bytes) throw new Error(`file ${file.id} ended after ${read} of its ${file.bytes} bytes`);
}

/**
 * A stored file's text lines (split on `\n`, as `String.split` splits the whole text: the last
 * line is what follows the last `\n`), decoded as UTF-8 part by part: at most a part and the line
 * being read are held, never the file.
 */
export async function* fileLines(store: FileRepository, file: FileRecord): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const bytes of fileParts(store, file)) {
    const lines = (rest + decoder.decode(bytes, { stream: true })).split('\n');
    rest = lines.pop() ?? '';
    yield* lines;
  }
  yield rest + decoder.decode();
}

/** A stored file's bytes in one array (small files: tests read output files so). */
export async function readWholeFile(store: FileRepository, file: FileRecord): Promise<Uint8Array> {
  const whole = new Uint8Array(file.bytes);
  let offset = 0;
  for await (const bytes of fileParts(store, file)) {
    if (offset + bytes.byteLength > whole.byteLength) throw new Error(`file ${file.id} holds more than its ${file.bytes} bytes`);
    whole.set(bytes, offset);
    offset += bytes.byteLength;
  }
  return whole;
}
