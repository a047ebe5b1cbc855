import type { FileRecord } from '@svc/db';

/** OpenAI's file object (`object: "file"`) of a stored file. */
export function fileObject(file: FileRecord) {
  return {
    id: file.id,
    object: 'file' as const,
    bytes: file.bytes,
    created_at: unixSeconds(file.createdAt),
    expires_at: unixSeconds(file.expiresAt),
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed' as const,
    status_details: null,
  };
}

export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
