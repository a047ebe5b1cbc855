import type { CallOptions, Recognition, RecognitionRequest } from '../provider.js';
import { encodeMultipart, postBody } from '../shared/http.js';
import type { KeyedTarget } from '../shared/keyed-target.js';
import { languageCode } from '../shared/language-code.js';
import { parseAnswer } from '../shared/parse-answer.js';
import { elevenlabsTranscriptSchema } from './elevenlabs-api.js';
import { classifyElevenLabsError } from './elevenlabs-error.js';

/**
 * Scribe speech to text (`POST /v1/speech-to-text`, multipart `model_id`, `file`, optional
 * `language_code`): the text, the detected (ISO 639-3 `eng` becomes `en`) or asked language, and the audio's duration as the last word's end.
 */
export async function elevenlabsTranscribe(target: KeyedTarget, request: RecognitionRequest, options: CallOptions | undefined): Promise<Recognition> {
  const form = new FormData();
  form.append('model_id', request.model);
  form.append('file', new Blob([request.file], request.fileType === undefined ? {} : { type: request.fileType }), request.filename);
  if (request.language !== undefined) form.append('language_code', request.language);
  const { body, contentType } = await encodeMultipart(form);
  const { response, text } = await postBody({
    provider: target.provider,
    http: target.http,
    url: `${target.base}/v1/speech-to-text`,
    headers: target.headers(options),
    body,
    contentType,
    signal: options?.signal,
    onResponse: options?.onResponse,
    classify: classifyElevenLabsError,
  });
  const answer = parseAnswer(target.provider, elevenlabsTranscriptSchema, text, response.status, 'transcription');
  const recognition: Recognition = { text: answer.text.trim() };
  const language = languageCode(answer.language_code ?? undefined) ?? request.language;
  if (language !== undefined) recognition.language = language;
  let end = 0;
  for (const word of answer.words ?? []) if (typeof word.end === 'number' && word.end > end) end = word.end;
  if (end > 0) recognition.durationSeconds = end;
  return recognition;
}
