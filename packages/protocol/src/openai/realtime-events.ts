import type { RealtimeTurn, RealtimeUsage } from '@svc/core';
import * as v from 'valibot';

/** What a relayed realtime server event tells the gateway: billed tokens or a transcribed turn. */
export type RealtimeObservation = { kind: 'usage'; usage: RealtimeUsage } | { kind: 'turn'; turn: RealtimeTurn };

const count = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0);
const usageSchema = v.object({
  input_tokens: count,
  output_tokens: count,
  input_token_details: v.optional(
    v.object({
      text_tokens: count,
      audio_tokens: count,
      cached_tokens_details: v.optional(v.object({ text_tokens: count, audio_tokens: count })),
    }),
  ),
  output_token_details: v.optional(v.object({ text_tokens: count, audio_tokens: count })),
});
const responseDoneSchema = v.object({ response: v.object({ usage: v.optional(v.nullable(usageSchema)) }) });
const transcriptSchema = v.object({ transcript: v.string() });
const textSchema = v.object({ text: v.string() });

/**
 * Server events that carry something the gateway keeps, beta (`response.audio_transcript.done`)
 * and GA (`response.output_audio_transcript.done`) names alike. Everything else (audio deltas,
 * the bulk of a session) is relayed without being parsed.
 */
const observed: ReadonlyMap<string, (event: unknown) => RealtimeObservation | undefined> = new Map([
  ['response.done', readResponseDone],
  ['conversation.item.input_audio_transcription.completed', (event: unknown) => turn('user', event, transcriptSchema, 'transcript')],
  ['response.audio_transcript.done', (event: unknown) => turn('assistant', event, transcriptSchema, 'transcript')],
  ['response.output_audio_transcript.done', (event: unknown) => turn('assistant', event, transcriptSchema, 'transcript')],
  ['response.text.done', (event: unknown) => turn('assistant', event, textSchema, 'text')],
  ['response.output_text.done', (event: unknown) => turn('assistant', event, textSchema, 'text')],
]);

/** How far into a frame its `type` is looked for; OpenAI sends it first. */
export const REALTIME_TYPE_HEAD = 160;
const TYPE_HEAD = REALTIME_TYPE_HEAD;
/** A frame whose head names no type is parsed whole only when it is this small. */
const SMALL_FRAME = 4096;
const typeField = /"type"\s*:\s*"([^"]{1,80})"/;

/**
 * Whether a frame may carry something `readRealtimeEvent` keeps, from its first
 * `REALTIME_TYPE_HEAD` characters and its size: lets a relay holding raw bytes skip decoding
 * the large audio frames at all.
 */
export function mayObserveRealtimeFrame(head: string, byteLength: number): boolean {
  const type = typeField.exec(head)?.[1];
  return type === undefined ? byteLength <= SMALL_FRAME : observed.has(type);
}

/**
 * Reads one OpenAI Realtime server event (a text frame) for the gateway's own use: the token
 * usage of `response.done` and the transcripts of finished turns. Cheap for everything else:
 * the type is read from the frame's head and only the few observed types are parsed, so the
 * large `*.delta` audio frames cost a short regex each. Undefined for anything not observed or
 * malformed (the frame is relayed regardless; the gateway never judges the client's protocol).
 */
export function readRealtimeEvent(frame: string): RealtimeObservation | undefined {
  if (!mayObserveRealtimeFrame(frame.length > TYPE_HEAD ? frame.slice(0, TYPE_HEAD) : frame, frame.length)) return undefined;
  let event: unknown;
  try {
    event = JSON.parse(frame);
  } catch {
    return undefined;
  }
  const actual = typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
  const read = typeof actual === 'string' ? observed.get(actual) : undefined;
  return read?.(event);
}

function readResponseDone(event: unknown): RealtimeObservation | undefined {
  const parsed = v.safeParse(responseDoneSchema, event);
  const usage = parsed.success ? parsed.output.response.usage : undefined;
  if (!usage) return undefined;
  const input = usage.input_token_details;
  const output = usage.output_token_details;
  return {
    kind: 'usage',
    usage: {
      // Without a text/audio split, the totals are counted as text (the cheaper, never the dearer, price).
      textInputTokens: input ? input.text_tokens : usage.input_tokens,
      cachedTextInputTokens: input?.cached_tokens_details?.text_tokens ?? 0,
      audioInputTokens: input?.audio_tokens ?? 0,
      cachedAudioInputTokens: input?.cached_tokens_details?.audio_tokens ?? 0,
      textOutputTokens: output ? output.text_tokens : usage.output_tokens,
      audioOutputTokens: output?.audio_tokens ?? 0,
    },
  };
}

function turn<K extends 'transcript' | 'text'>(
  role: RealtimeTurn['role'],
  event: unknown,
  schema: v.GenericSchema<unknown, Record<K, string>>,
  field: K,
): RealtimeObservation | undefined {
  const parsed = v.safeParse(schema, event);
  const text = parsed.success ? parsed.output[field].trim() : '';
  return text ? { kind: 'turn', turn: { role, text } } : undefined;
}
