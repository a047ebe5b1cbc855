import { invalidRequest, payloadTooLarge } from '@svc/core';

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

/** A text part of a multipart form; 400 naming it when it is a file. */
export function formText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  if (value === null) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`Invalid '${name}': must be a text field, not a file.`, name);
  return value;
}

/**
 * The audio file part of a form, under the first of `names` present; the error names the first.
 *
 * @throws GatewayError 400 when it is missing or a text field; 413 above 25 MB.
 */
export async function audioUpload(form: FormData, names: readonly string[] = ['file']): Promise<AudioUpload> {
  const param = names[0] ?? 'file';
  let file: ReturnType<FormData['get']> = null;
  for (const name of names) {
    file = form.get(name);
    if (file !== null) break;
  }
  if (file === null) throw invalidRequest(`Missing required parameter: '${param}'.`, param);
  if (typeof file === 'string') throw invalidRequest(`Invalid '${param}': must be an audio file part (multipart/form-data).`, param);
  if (file.size > MAX_AUDIO_FILE_BYTES) throw payloadTooLarge(MAX_AUDIO_FILE_BYTES);
  const upload: AudioUpload = { file: new Uint8Array(await file.arrayBuffer()), filename: file.name || 'audio' };
  if (file.type) upload.fileType = file.type;
  return upload;
}
