import type { FinishReason, Usage } from './chat.js';

/**
 * Canonical stream events, emitted by provider adapters as the provider produces them.
 * `choice` is the choice index (0 unless n > 1).
 */
export type StreamEvent =
  | { type: 'text-delta'; choice: number; text: string }
  | { type: 'reasoning-delta'; choice: number; text: string }
  | { type: 'refusal-delta'; choice: number; text: string }
  /**
   * A tool call fragment. `index` orders calls within a choice; `id` and `name` arrive on the
   * first fragment of a call, `argumentsDelta` fragments concatenate to the arguments JSON.
   */
  | {
      type: 'tool-call-delta';
      choice: number;
      index: number;
      id?: string;
      name?: string;
      argumentsDelta: string;
    }
  /**
   * The provider closed tool call `index` of `choice`: no fragment of it follows. Optional:
   * adapters that cannot know (the OpenAI chunk stream) never send it, and every consumer must
   * also work without it (a call then ends with the stream).
   */
  | { type: 'tool-call-end'; choice: number; index: number }
  | { type: 'finish'; choice: number; finishReason: FinishReason }
  | { type: 'usage'; usage: Usage }
  /** Upstream metadata known once the stream has started (response id, served model). */
  | { type: 'meta'; id?: string; model?: string; systemFingerprint?: string };

export type StreamEventType = StreamEvent['type'];
