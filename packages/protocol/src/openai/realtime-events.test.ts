import { describe, expect, it } from 'vitest';
import { mayObserveRealtimeFrame, readRealtimeEvent } from './realtime-events.js';

const responseDone = {
  type: 'response.done',
  event_id: 'event_1',
  response: {
    id: 'resp_1',
    status: 'completed',
    usage: {
      total_tokens: 821,
      input_tokens: 789,
      output_tokens: 32,
      input_token_details: { text_tokens: 313, audio_tokens: 476, cached_tokens: 640, cached_tokens_details: { text_tokens: 256, audio_tokens: 384 } },
      output_token_details: { text_tokens: 9, audio_tokens: 23 },
    },
  },
};

describe('readRealtimeEvent', () => {
  it('reads the text/audio/cached split of response.done usage', () => {
    expect(readRealtimeEvent(JSON.stringify(responseDone))).toEqual({
      kind: 'usage',
      usage: { textInputTokens: 313, cachedTextInputTokens: 256, audioInputTokens: 476, cachedAudioInputTokens: 384, textOutputTokens: 9, audioOutputTokens: 23 },
    });
  });

  it('counts usage without a split as text', () => {
    const event = { type: 'response.done', response: { usage: { input_tokens: 10, output_tokens: 4 } } };
    expect(readRealtimeEvent(JSON.stringify(event))).toMatchObject({ usage: { textInputTokens: 10, audioInputTokens: 0, textOutputTokens: 4, audioOutputTokens: 0 } });
  });

  it('ignores a response.done without usage, and malformed frames', () => {
    expect(readRealtimeEvent(JSON.stringify({ type: 'response.done', response: { status: 'cancelled' } }))).toBeUndefined();
    expect(readRealtimeEvent('{"type":"response.done", nope')).toBeUndefined();
    expect(readRealtimeEvent('not json')).toBeUndefined();
  });

  it('reads finished turns in the beta and GA names', () => {
    expect(readRealtimeEvent(JSON.stringify({ type: 'conversation.item.input_audio_transcription.completed', item_id: 'i', transcript: ' Hello there ' }))).toEqual({
      kind: 'turn',
      turn: { role: 'user', text: 'Hello there' },
    });
    for (const type of ['response.audio_transcript.done', 'response.output_audio_transcript.done']) {
      expect(readRealtimeEvent(JSON.stringify({ type, transcript: 'Hi!' }))).toEqual({ kind: 'turn', turn: { role: 'assistant', text: 'Hi!' } });
    }
    expect(readRealtimeEvent(JSON.stringify({ type: 'response.output_text.done', text: 'typed' }))).toMatchObject({ turn: { role: 'assistant', text: 'typed' } });
    expect(readRealtimeEvent(JSON.stringify({ type: 'response.audio_transcript.done', transcript: '   ' }))).toBeUndefined();
  });

  it('does not parse the audio deltas it relays', () => {
    const delta = JSON.stringify({ type: 'response.audio.delta', event_id: 'e', delta: 'A'.repeat(100_000) });
    expect(readRealtimeEvent(delta)).toBeUndefined();
    expect(mayObserveRealtimeFrame(delta.slice(0, 160), delta.length)).toBe(false);
    expect(mayObserveRealtimeFrame('{"type":"response.done","event_id"', 50_000)).toBe(true);
    // A large frame whose head names a type it does not observe is never parsed, even if a later field would match.
    expect(readRealtimeEvent(JSON.stringify({ type: 'response.audio.delta', delta: 'x', response: responseDone.response }))).toBeUndefined();
  });
});
