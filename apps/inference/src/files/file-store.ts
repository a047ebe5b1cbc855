import { fileId } from '@svc/core';
import type { FileRecord, FileRepository } from '@svc/db';

const DAY_MS = 86_400_000;

/** The stored files, the largest upload, and how long a file lives. */
export interface FileSettings {
  store: FileRepository;
  /** SVC_FILES_MAX_BYTES: the largest file `POST /v1/files` takes (413 above). */
  maxBytes: number;
  /** SVC_FILES_TTL_DAYS: a file expires this many days after its creation, unless asked sooner. */
  ttlDays: number;
}

/** What to keep: the organisation's bytes under a name and purpose, and a shorter life when asked. */
export interface FileToKeep {
  orgId: string;
  filename: string;
  purpose: string;
  content: Uint8Array;
  expiresAfterSeconds?: number | undefined;
}

/** Keeps a file under a new id; it expires `expiresAfterSeconds` after now, at most the retention period. */
export function keepFile(files: FileSettings, { expiresAfterSeconds, ...file }: FileToKeep, now = new Date()): Promise<FileRecord> {
  const retentionMs = files.ttlDays * DAY_MS;
  const lifeMs = expiresAfterSeconds === undefined ? retentionMs : Math.min(expiresAfterSeconds * 1000, retentionMs);
  return files.store.create({ id: fileId(), ...file, createdAt: now, expiresAt: new Date(now.getTime() + lifeMs) });
}
