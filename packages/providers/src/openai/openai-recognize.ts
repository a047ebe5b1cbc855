import * as v from 'valibot';
import type { CallOptions, Recognition, RecognitionRequest } from '../provider.js';
import { languageCode } from '../shared/language-code.js';
import { parseAnswer } from '../shared/parse-answer.js';
import { type OpenAITranscriptionTarget, openAITranscribe } from './openai-transcription.js';

/** OpenAI's gpt-4o transcription models answer `json` or `text` only; Whisper (OpenAI's, Groq's) also `verbose_json`. */
const jsonOnly = /^gpt-4o(?:-mini)?-transcribe/;

/**
 * What the gateway reads of a `json` or `verbose_json` transcription: the text, the detected
 * language (`verbose_json`, a name such as `english`), the duration (`verbose_json`, or the
 * `usage` of models billed by duration).
 */
const transcriptSchema = v.object({
  text: v.string(),
  language: v.nullish(v.string()),
  duration: v.nullish(v.number()),
  usage: v.nullish(v.object({ type: v.string(), seconds: v.nullish(v.number()) })),
});

/**
 * Speech to text for the voice endpoints over `/audio/transcriptions`: `verbose_json` where the
 * model has it (language and duration), `json` elsewhere (the duration from `usage` when the model
 * is billed by duration; the language is the one asked for).
 */
export async function openAIRecognize(target: OpenAITranscriptionTarget, request: RecognitionRequest, options: CallOptions | undefined): Promise<Recognition> {
  const result = await openAITranscribe(
    target,
    { ...request, task: 'transcription', responseFormat: jsonOnly.test(request.model) ? 'json' : 'verbose_json' },
    options,
  );
  const transcript = parseAnswer(target.provider, transcriptSchema, result.body, 200, 'transcription');
  const recognition: Recognition = { text: transcript.text.trim() };
  const language = languageCode(transcript.language ?? undefined) ?? request.language;
  if (language !== undefined) recognition.language = language;
  const seconds = transcript.duration ?? (transcript.usage?.type === 'duration' ? transcript.usage.seconds : undefined);
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) recognition.durationSeconds = seconds;
  return recognition;
}
