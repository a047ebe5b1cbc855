import * as v from 'valibot';

/*
 * Minimal schema of ElevenLabs' `/v1/speech-to-text` answer: the text, the detected language and
 * the words' timings (the last word's end is the duration the gateway prices).
 */
export const elevenlabsTranscriptSchema = v.object({
  text: v.string(),
  language_code: v.nullish(v.string()),
  words: v.nullish(v.array(v.object({ end: v.nullish(v.number()) }))),
});
