import * as v from 'valibot';
import { audioFilePart, formTextPart } from '../shared/multipart-fields.js';

/** `<format>_<sample rate>`, the shape of `output_format` (`mp3_44100`, `pcm_16000`, `wav_24000`). */
export const OUTPUT_FORMAT_PATTERN = /^[a-z][a-z0-9]*_\d{4,6}$/;
export const OUTPUT_FORMAT_MESSAGE = 'must be a format name with its sample rate, such as mp3_44100, pcm_16000 or wav_24000';

/** Longest conversation id the voice endpoints keep a session under. */
export const MAX_CONVERSATION_ID_CHARS = 256;

const languageMessage = 'must be an ISO 639-1 language code such as en or de';
/** A language tag: its primary code, then subtags (`en`, `en-US`, `zh-Hant-TW`). */
const languageTag = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;
const primaryCode = (tag: string) => tag.split('-')[0]!.toLowerCase();

/** A `language` part, as its ISO 639 primary code lowercased (`en-US` -> `en`). */
export const languagePart = v.pipe(
  formTextPart,
  v.trim(),
  v.regex(languageTag, languageMessage),
  v.transform(primaryCode),
  v.description('ISO 639-1 language of the speech (`en`, `de`; a tag such as `en-US` counts as its primary code).'),
);

/** An optional `language` part: empty means unspecified. */
export const optionalLanguagePart = v.pipe(
  formTextPart,
  v.trim(),
  v.regex(/^(?:[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)?$/, languageMessage),
  v.transform((tag) => (tag === '' ? undefined : primaryCode(tag))),
  v.description('ISO 639-1 language of the speech (`en`, `de`; `en-US` counts as `en`); empty or absent: unspecified.'),
);

/** A non-empty text part of at most `max` characters, trimmed. */
export function trimmedTextPart(max: number) {
  const message = `must be a non-empty string of at most ${max} characters`;
  return v.pipe(formTextPart, v.trim(), v.minLength(1, message), v.maxLength(max, message));
}

/** A model slug part (`stt_model`, `tts_model`, `model`): non-empty, at most 200 characters. */
export const modelPart = trimmedTextPart(200);

/** `output_format`: `<format>_<rate>`. */
export const outputFormatPart = v.pipe(formTextPart, v.regex(OUTPUT_FORMAT_PATTERN, OUTPUT_FORMAT_MESSAGE));

/** One of the audio parts is required; the 400 names `file`. */
const audioRequired = v.forward(
  v.partialCheck(
    [['file'], ['audio']],
    (parts: { file?: Blob | undefined; audio?: Blob | undefined }) => parts.file !== undefined || parts.audio !== undefined,
    'is required: send the audio as a file part named file (or audio)',
  ),
  ['file'],
);

/**
 * The multipart form of a voice endpoint: the audio as `file` or `audio` (one is required, 400
 * naming `file`; with both, `file` is used), and `entries` for the other parts.
 */
export function voiceFormSchema<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  const parts = v.object({
    file: v.optional(audioFilePart),
    audio: v.optional(v.pipe(audioFilePart, v.description('The audio, when not sent as `file`.'))),
    ...entries,
  });
  // The check reads only file and audio, which every such form has; TypeScript cannot follow
  // that through the generic entries, so the action is typed for the whole form here.
  return v.pipe(parts, audioRequired as unknown as v.GenericValidation<v.InferOutput<typeof parts>>);
}
