import { fileTooLarge } from '@svc/core';
import * as v from 'valibot';
import { formTextPart, parseMultipartForm } from '../shared/multipart-fields.js';

/** The purposes `POST /v1/files` accepts (OpenAI's list). */
export const filePurposes = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;
export type FilePurpose = (typeof filePurposes)[number];

/** OpenAI's bounds of `expires_after.seconds`: one hour to 30 days. */
const EXPIRY_SECONDS = { min: 3600, max: 2_592_000 } as const;
const expiryMessage = `must be an integer from ${EXPIRY_SECONDS.min} to ${EXPIRY_SECONDS.max}`;

/** The multipart form of `POST /v1/files`; the SDKs send `expires_after` as bracketed parts. */
export const fileFormSchema = v.object({
  file: v.pipe(v.blob('must be a file part (multipart/form-data)'), v.description('The file (413 above the configured limit).')),
  purpose: v.picklist(filePurposes, `must be one of ${filePurposes.join(', ')}`),
  'expires_after[anchor]': v.optional(v.literal('created_at', "must be 'created_at'")),
  'expires_after[seconds]': v.optional(
    v.pipe(formTextPart, v.regex(/^\d{1,8}$/, expiryMessage), v.transform(Number), v.minValue(EXPIRY_SECONDS.min, expiryMessage), v.maxValue(EXPIRY_SECONDS.max, expiryMessage)),
  ),
});

/** A validated upload form (the file's bytes were taken as they came). */
export interface DecodedFileUpload {
  /** The part's file name, `file` when the client sent none. */
  filename: string;
  purpose: FilePurpose;
  /** `expires_after.seconds` when sent: the file expires this long after its creation. */
  expiresAfterSeconds?: number;
}

/**
 * Validates the form of `POST /v1/files`: its `file` part (whose bytes a stream took, or a Blob
 * of them) and fields.
 *
 * @throws GatewayError 413 `file_too_large` above `maxBytes`; 400 naming the part otherwise.
 */
export function decodeFileUpload(form: FormData, maxBytes: number): DecodedFileUpload {
  const parts = parseMultipartForm(fileFormSchema, form, (size) => (size > maxBytes ? fileTooLarge(maxBytes) : undefined));
  const { file, purpose } = parts;
  const upload: DecodedFileUpload = {
    filename: (file instanceof File && file.name) || 'file',
    purpose,
  };
  const seconds = parts['expires_after[seconds]'];
  if (seconds !== undefined) upload.expiresAfterSeconds = seconds;
  return upload;
}
