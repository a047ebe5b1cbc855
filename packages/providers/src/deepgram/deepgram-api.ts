import * as v from 'valibot';

/*
 * Minimal schema of Deepgram's pre-recorded `/v1/listen` answer: what the gateway reads (the
 * first channel's best transcript, the detected language, the audio's duration), nothing else.
 */
export const deepgramListenResponseSchema = v.object({
  metadata: v.object({ duration: v.number() }),
  results: v.object({
    channels: v.pipe(
      v.array(
        v.object({
          alternatives: v.pipe(v.array(v.object({ transcript: v.string() })), v.minLength(1)),
          detected_language: v.nullish(v.string()),
        }),
      ),
      v.minLength(1),
    ),
  }),
});
