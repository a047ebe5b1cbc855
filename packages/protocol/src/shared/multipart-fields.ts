import { type GatewayError, payloadTooLarge } from '@svc/core';
import * as v from 'valibot';
import { issueToError } from './issue-to-error.js';

/** Largest audio file an upload takes (spec §Limits): 25 MB. */
export const MAX_AUDIO_FILE_BYTES = 25 * 1024 * 1024;

/** An uploaded audio file, read. */
export interface AudioUpload {
  file: Uint8Array;
  /** The file's name, `audio` when the client sent none. */
  filename: string;
  /** The part's content type, when the client sent one. */
  fileType?: string;
}

/** A text part of a multipart form (a file sent there is a 400 naming the part). */
export const formTextPart = v.string('must be a text field, not a file');

/** An audio file part: documented as binary, 413 above 25 MB (checked by {@link parseMultipartForm}). */
export const audioFilePart = v.pipe(
  v.blob('must be an audio file part (multipart/form-data)'),
  v.description(`The audio file, at most ${MAX_AUDIO_FILE_BYTES} bytes (413 above).`),
);

/**
 * Validates a multipart form with the valibot schema of its parts (the schema its route
 * publishes): a file part `tooLarge` refuses (default: above 25 MB, a 413) is refused first, then the first issue is a 400 naming the
 * part. Each part is read once (`form.get`: the first of a repeated name).
 */
export function parseMultipartForm<const TSchema extends v.GenericSchema>(
  schema: TSchema,
  form: FormData,
  tooLarge: (size: number) => GatewayError | undefined = (size) => (size > MAX_AUDIO_FILE_BYTES ? payloadTooLarge(MAX_AUDIO_FILE_BYTES) : undefined),
): v.InferOutput<TSchema> {
  const parts: Record<string, string | Blob> = {};
  for (const [name, value] of form) {
    if (name in parts) continue;
    const refused = typeof value === 'string' ? undefined : tooLarge(value.size);
    if (refused) throw refused;
    parts[name] = value;
  }
  const parsed = v.safeParse(schema, parts, { abortEarly: true });
  if (!parsed.success) throw issueToError(parsed.issues[0]);
  return parsed.output;
}

/** The bytes, name and type of an uploaded file part. */
export async function readUpload(file: Blob): Promise<AudioUpload> {
  const upload: AudioUpload = { file: new Uint8Array(await file.arrayBuffer()), filename: (file instanceof File && file.name) || 'audio' };
  if (file.type) upload.fileType = file.type;
  return upload;
}
